internal import CFFmpeg
import Foundation
import ReelSupport

extension TranscodePlan {
    /// Seconds before a range's sound starts that decoding starts, so the decoder is warm (an
    /// AAC decoder's first frame after a seek has no overlap to add and comes out faded).
    static let audioPreroll = 0.05

    /// How the sound of `ranges` meets at each plain cut.
    var audioJoins: AudioJoins {
        AudioJoins(ranges: ranges, sourceStart: source.startTime, sourceEnd: source.startTime + source.duration)
    }

    /// How far before range `position`'s start reading starts for its sound: what its join
    /// borrows and the decoder's warm-up (none for a range at the file's start).
    func audioSeekLead(position: Int, joins: AudioJoins) -> Double {
        guard ranges.indices.contains(position) else { return 0 }
        let range = ranges[position]
        let room = max(range.start.seconds - source.startTime, 0)
        let lead = position > 0 && position - 1 < joins.borrowed.count ? joins.borrowed[position - 1].before : 0
        return min(lead + Self.audioPreroll, room)
    }

    /// Where the source's picture ends, in seconds, when its probed layout says.
    var videoEnd: Double? {
        guard let layout = source.layout, let stream = layout.stream(videoStreamIndex),
              let end = layout.endTimestamp(ofStream: videoStreamIndex) else { return nil }
        return Double(end) * av_q2d(stream.timeBase)
    }

    /// What is done to `track`'s joined sound as a whole; `videoEnd` is where the source's
    /// picture ends, in seconds, when known.
    func audioFinishing(for track: AudioTrackPlan, videoEnd: Double?) -> AudioFinishing {
        AudioFinishing()
    }
}
