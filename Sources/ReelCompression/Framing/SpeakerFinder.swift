import Foundation

/// Tells who speaks in a shot from how much each face's mouth moves between samples: a
/// speaker's lips open and close from one half second to the next, a listener's stay put.
///
/// Faces are followed from sample to sample by position (the nearest face of the previous
/// samples, within `linkDistance`); a face's movement near a time is the mean change of its
/// mouth's opening between consecutive samples within `window` seconds. The speaker is the face
/// that moves clearly (`minimumMovement`) and clearly more than every other (`dominance`).
struct SpeakerFinder {
    /// Seconds either side of a sample whose mouth changes count.
    var window = 1.5
    /// Mean change of the inner lips' gap (over the eye distance) between samples below which a
    /// mouth is still. Measured on real dialogue, a listener's mouth changes by 0.01-0.03 from
    /// one half second to the next (landmark noise); a speaker's by 0.06 and more.
    var minimumMovement = 0.045
    /// How many times more than every other face the speaker's mouth must move.
    var dominance = 1.6
    /// Largest distance (share of the picture) between a face's centres on consecutive samples.
    var linkDistance = 0.15

    private struct Track {
        var samples: [(index: Int, time: Double, box: CGRect, mouth: Double?)] = []
        var last: CGRect { samples[samples.count - 1].box }
    }

    /// The speaker's face on each of `observations` (one shot's, in time order): `nil` where
    /// nobody clearly speaks, where faces were not looked for, or where the speaker's face was
    /// not found on that sample.
    func speakers(in observations: [SubjectObservation]) -> [CGRect?] {
        let tracks = self.tracks(of: observations)
        guard tracks.count >= 2 else { return observations.map { _ in nil } }
        return observations.enumerated().map { index, observation in
            guard observation.faces?.isEmpty == false else { return nil }
            let movements = tracks.map { movement(of: $0, near: observation.time) }
            guard let best = movements.indices.max(by: { movements[$0] < movements[$1] }),
                  movements[best] >= minimumMovement else { return nil }
            let others = movements.indices.filter { $0 != best }.map { movements[$0] }.max() ?? 0
            guard movements[best] >= dominance * others else { return nil }
            return tracks[best].samples.first { $0.index == index }?.box
        }
    }

    /// Faces linked across samples by position.
    private func tracks(of observations: [SubjectObservation]) -> [Track] {
        var tracks: [Track] = []
        for (index, observation) in observations.enumerated() {
            guard let faces = observation.faces else { continue }
            var taken = Set<Int>()
            for (position, face) in faces.enumerated() {
                let mouth = position < observation.mouths.count ? observation.mouths[position] : nil
                let candidates = tracks.indices.filter { track in
                    !taken.contains(track) && observation.time - tracks[track].samples[tracks[track].samples.count - 1].time <= window
                        && distance(tracks[track].last, face) <= linkDistance
                }
                if let nearest = candidates.min(by: { distance(tracks[$0].last, face) < distance(tracks[$1].last, face) }) {
                    tracks[nearest].samples.append((index, observation.time, face, mouth))
                    taken.insert(nearest)
                } else {
                    tracks.append(Track(samples: [(index, observation.time, face, mouth)]))
                    taken.insert(tracks.count - 1)
                }
            }
        }
        return tracks
    }

    /// The mean change of the track's mouth between consecutive samples within `window` of
    /// `time`; 0 with fewer than two changes to go on.
    private func movement(of track: Track, near time: Double) -> Double {
        var changes: [Double] = []
        for (before, after) in zip(track.samples, track.samples.dropFirst())
        where abs(after.time - time) <= window && abs(before.time - time) <= window {
            if let from = before.mouth, let to = after.mouth { changes.append(abs(to - from)) }
        }
        guard changes.count >= 2 else { return 0 }
        return changes.reduce(0, +) / Double(changes.count)
    }

    private func distance(_ a: CGRect, _ b: CGRect) -> Double {
        Double(hypot(a.midX - b.midX, a.midY - b.midY))
    }
}
