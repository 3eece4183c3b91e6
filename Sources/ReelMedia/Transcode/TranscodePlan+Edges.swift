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
        AudioFinishing(loudness: track.loudness, edgeFade: edgeFade,
                       outputEnd: edgeFade > 0 ? outputDuration(videoEnd: videoEnd) : nil)
    }

    /// Seconds the output lasts: its ranges joined (the last one ending where the picture
    /// ends, `videoEnd` seconds, when that is earlier), less each picture crossfade's overlap.
    func outputDuration(videoEnd: Double?) -> Double {
        var total = 0.0
        for (position, range) in ranges.enumerated() {
            let isLast = position == ranges.count - 1
            var end = range.end.seconds
            if isLast, !range.endsEarly, let videoEnd, videoEnd > range.start.seconds { end = min(end, videoEnd) }
            let duration = end - range.start.seconds
            total += duration
            if dissolves(afterRange: position, duration: duration) { total -= crossfade }
        }
        return max(total, 0)
    }

    /// The picture's fades from black at the output's start and to black at its end (the last
    /// picture black), on the output timeline; `nil` without fades.
    func pictureFadeFilter(videoEnd: Double?) -> String? {
        guard edgeFade > 0, pictureFadeEnds.start || pictureFadeEnds.end else { return nil }
        let frame = video.frameRate > 0 ? 1 / video.frameRate : 1.0 / 30
        let fadeIn = pictureFadeEnds.start ? String(format: "fade=t=in:st=0:d=%.6f", edgeFade) : nil
        let outStart = outputDuration(videoEnd: videoEnd) - frame - edgeFade
        let fadeOut = pictureFadeEnds.end && outStart > 0 ? String(format: "fade=t=out:st=%.6f:d=%.6f", outStart, edgeFade) : nil
        let filters = [fadeIn, fadeOut].compactMap { $0 }
        return filters.isEmpty ? nil : filters.joined(separator: ",")
    }
}
