internal import CFFmpeg
import ReelSupport

/// An audio-only pass over a plan's ranges: the file is read once with only the sound's packets
/// decoded, and each range's sound is placed and joined as the full transcode places it (its
/// offset on the output timeline, the overlaps of plain cuts, a picture crossfade's). The audio
/// job of a chunked encode and the loudness meter run one.
struct AudioPass {
    let plan: TranscodePlan
    let input: InputFile
    /// The stages, with the source stream each decodes.
    let stages: [(streamIndex: Int, stage: AudioStage)]

    /// Where a range lands on the output timeline, as the transcoder's video places it.
    struct Placement: Equatable {
        /// Where the range starts.
        var offset: Double
        /// Where its picture crossfade's tail begins (the next range dissolves over it).
        var pictureTailStart: Double?
        /// Whether it dissolves over the previous range's tail.
        var pictureBlendsIn: Bool
    }

    /// The placement of every range of `plan`: joined end to end, each picture crossfade
    /// (where the range before it lasts more than twice the crossfade) starting the next range
    /// that much earlier.
    static func placements(of plan: TranscodePlan) -> [Placement] {
        var result: [Placement] = []
        var offset = 0.0
        var blends = false
        for (position, range) in plan.ranges.enumerated() {
            let duration = (range.end - range.start).seconds
            let crossfades = plan.dissolves(afterRange: position, duration: duration)
            let tail = crossfades ? offset + duration - plan.crossfade : nil
            result.append(Placement(offset: offset, pictureTailStart: tail, pictureBlendsIn: blends))
            offset = tail ?? offset + duration
            blends = crossfades
        }
        return result
    }

    /// Runs the pass. `beforeRange` is told each range and its output offset as it starts;
    /// `progress` gets the share of the output timeline read.
    func run(
        shouldCancel: () -> Bool, progress: (Double) -> Void,
        beforeRange: (ClosedSourceRange, Double) throws(MediaFailure) -> Void = { _, _ throws(MediaFailure) in }
    ) throws(MediaFailure) {
        let stageOf = Dictionary(stages.map { ($0.streamIndex, $0.stage) }, uniquingKeysWith: { first, _ in first })
        let primary = stages.first?.streamIndex
        let joins = plan.audioJoins
        let placements = Self.placements(of: plan)
        let total = max(plan.ranges.map { ($0.end - $0.start).seconds }.reduce(0, +), 0.001)
        let reading = try Packet()
        var done = 0.0
        for (position, range) in plan.ranges.enumerated() {
            let placement = placements[position]
            try beforeRange(range, placement.offset)
            if !stages.isEmpty && (position > 0 || range.needsSeek) {
                try input.seek(toSeconds: range.start.seconds - plan.audioSeekLead(position: position, joins: joins))
            }
            let duration = (range.end - range.start).seconds
            let edges = joins.edges(
                position: position, outputOffset: placement.offset, duration: duration,
                pictureBlendsIn: placement.pictureBlendsIn, pictureTailStart: placement.pictureTailStart)
            for (_, stage) in stages { stage.beginRange(range, outputOffset: placement.offset, edges: edges) }
            var atEndOfFile = false
            while !stages.allSatisfy(\.stage.isDone) {
                if shouldCancel() { throw .cancelled }
                guard try input.read(into: reading) else {
                    atEndOfFile = true
                    break
                }
                defer { reading.unreference() }
                guard let stage = stageOf[reading.streamIndex] else { continue }
                try stage.handle(reading)
                if let primary, reading.streamIndex == primary, let stamp = reading.presentationTimestamp,
                   let stream = input.stream(primary) {
                    let seconds = Double(stamp) * av_q2d(stream.pointee.time_base)
                    progress(min(max(done + seconds - range.start.seconds, 0) / total, 1))
                }
            }
            for (_, stage) in stages { try stage.endRange(atEndOfFile: atEndOfFile) }
            done += duration
        }
        for (_, stage) in stages { try stage.finish() }
        let corrupt = stages.map(\.stage.corruptPackets).reduce(0, +)
        if corrupt > 2 {
            throw .failed(.decode, "avcodec_send_packet", "\(corrupt) audio packets are corrupt and could not be decoded")
        }
    }
}
