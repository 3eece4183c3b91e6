import ReelSupport

/// How the sound of one range meets its neighbours on the output timeline.
///
/// At a plain cut the two sides overlap for `AudioJoins.overlap` seconds, centred on the cut:
/// the outgoing range's sound runs on past its end (`overrun`) while the incoming one's starts
/// before its start (`lead`), and `AudioCrossfade` mixes the two. Every range keeps its own
/// length, so the sound stays on the picture's clock however many joins there are.
struct AudioRangeEdges: Equatable {
    /// Seconds of source sound before the range's start that are played, under the end of the
    /// range before it.
    var lead = 0.0
    /// Seconds of source sound after the range's end that are played, under the start of the
    /// range after it.
    var overrun = 0.0
    /// Where, on the output timeline, the range's sound starts being kept back to be mixed
    /// under the next range's (`nil`: the next range is not mixed in).
    var tailStart: Double?
    /// Whether the previous range's kept-back sound is mixed under this range's start.
    var blendsIn = false
    /// A short fade in at the start instead (a join with nothing to borrow on either side).
    var fadesIn = false
    /// A short fade out at the end instead.
    var fadesOut = false
}

/// The sound at the joins of a plan's ranges: what each plain cut borrows on either side.
///
/// A range that starts at the file's start has nothing before it, and one that ends at the
/// file's end nothing after it: the other side then borrows the whole overlap. Ranges that
/// follow each other in the source need nothing (the sound is continuous). Where neither side
/// has sound to spare, or a range is too short to hold both of its overlaps, the join falls
/// back to short fades out and in.
struct AudioJoins {
    /// Seconds the two sides of a plain cut overlap (half on each side of the cut when both
    /// can give it). Long enough that no cut clicks, short enough that no word is smeared.
    static let overlap = 0.02

    /// For each join (after range `i`): seconds borrowed after range `i` and before range `i + 1`.
    private(set) var borrowed: [(after: Double, before: Double)] = []
    /// For each join: whether it falls back to fades.
    private(set) var fades: [Bool] = []

    /// The joins of `ranges`, in a source whose sound lasts from `sourceStart` to `sourceEnd`
    /// seconds (`nil` when unknown).
    init(ranges: [ClosedSourceRange], sourceStart: Double, sourceEnd: Double?) {
        let overlap = Self.overlap
        for (a, b) in zip(ranges, ranges.dropFirst()) {
            if abs(b.start.seconds - a.end.seconds) < 1e-6 {
                // The source goes on across the join: nothing to mix.
                borrowed.append((0, 0))
                fades.append(false)
                continue
            }
            let afterRoom = a.endsEarly ? min(overlap, max((sourceEnd ?? .infinity) - a.end.seconds, 0)) : 0
            let beforeRoom = b.needsSeek ? min(overlap, max(b.start.seconds - sourceStart, 0)) : 0
            var after = min(overlap / 2, afterRoom), before = min(overlap / 2, beforeRoom)
            if after < overlap / 2 { before = min(overlap - after, beforeRoom) }
            if before < overlap / 2 { after = min(overlap - before, afterRoom) }
            let tooShort = (a.end - a.start).seconds < 2 * overlap || (b.end - b.start).seconds < 2 * overlap
            if after + before < overlap / 4 || tooShort {
                borrowed.append((0, 0))
                fades.append(true)
            } else {
                borrowed.append((after, before))
                fades.append(false)
            }
        }
    }

    /// The edges of range `position`, which starts at `outputOffset` seconds and lasts
    /// `duration` on the output. `pictureBlendsIn` and `pictureTailStart` say where the picture
    /// crossfades instead (its own overlap, which the sound then follows).
    /// `followsPictureTail` says the range before kept a picture tail that this one does not
    /// blend with after all (its sound then plays as it is).
    func edges(position: Int, outputOffset: Double, duration: Double, pictureBlendsIn: Bool,
               pictureTailStart: Double?, followsPictureTail: Bool = false) -> AudioRangeEdges {
        var edges = AudioRangeEdges()
        if pictureBlendsIn {
            edges.blendsIn = true
        } else if position > 0, position - 1 < borrowed.count, !followsPictureTail {
            let join = borrowed[position - 1]
            edges.lead = join.before
            edges.blendsIn = join.before + join.after > 0
            edges.fadesIn = fades[position - 1]
        }
        if let pictureTailStart {
            edges.tailStart = pictureTailStart
        } else if position < borrowed.count {
            let join = borrowed[position]
            edges.overrun = join.after
            if join.before + join.after > 0 { edges.tailStart = outputOffset + duration - join.before }
            edges.fadesOut = fades[position]
        }
        return edges
    }

    /// The length of the fades at a join that cannot overlap.
    static var fallbackFade: Double { overlap / 2 }
}
