internal import CFFmpeg
import Foundation
import ReelSupport

/// What a file's primary video stream really holds, read packet by packet (no decoding), against
/// what its header claims: a file whose media data was cut short still has a header that
/// promises every frame.
package struct PacketCensus: Sendable, Equatable {
    /// Video packets read whole before the end of the data.
    package var videoPackets: Int
    /// The end (last packet's time plus its duration) of the video read, in seconds from the
    /// stream's start.
    package var videoEnd: Double
    /// The frame count the header states, if it states one.
    package var claimedFrames: Int64?
    /// The video duration the header states, in seconds.
    package var claimedDuration: Double

    /// Whether the data holds (nearly) all the header promises: every claimed frame, and video
    /// up to within half a second (or 3%) of the claimed duration.
    package var isWhole: Bool {
        guard videoPackets > 0 else { return false }
        if let claimedFrames, Int64(videoPackets) < claimedFrames { return false }
        return !DataEnd.fallsShort(videoEnd, of: claimedDuration, lasting: claimedDuration)
    }

    /// Reads every packet of `url`'s primary video stream.
    package static func take(_ url: URL) throws(ReelError) -> PacketCensus {
        do {
            let input = try InputFile(url: url)
            guard let index = input.bestVideoStream, let stream = input.stream(index) else {
                throw ReelError.unreadableSource(url, reason: "no video stream")
            }
            let timeBase = av_q2d(stream.pointee.time_base)
            let start = stream.pointee.start_time != reel_nopts_value() ? stream.pointee.start_time : 0
            var census = PacketCensus(
                videoPackets: 0, videoEnd: 0, claimedFrames: stream.pointee.nb_frames > 0 ? stream.pointee.nb_frames : nil,
                claimedDuration: input.durationSeconds(ofStream: index))
            let packet = try Packet()
            // A read error past the first packets is where the data stops, not a failure to report.
            while (try? input.read(into: packet)) == true {
                defer { packet.unreference() }
                guard packet.streamIndex == index, !packet.isCorrupt else { continue }
                census.videoPackets += 1
                if let pts = packet.presentationTimestamp {
                    census.videoEnd = max(census.videoEnd, Double(pts - start + max(packet.duration, 0)) * timeBase)
                }
            }
            return census
        } catch let error as ReelError {
            throw error
        } catch {
            throw ReelError.unreadableSource(url, reason: String(describing: error))
        }
    }
}

extension MediaInfo {
    /// Why the video at `url` is not a complete output, or `nil` when it is: it must open as a
    /// video, hold every frame its header promises (data cut short keeps a header promising all
    /// of them), and last within half a second (or 3%) of `expectedDuration`, when that is
    /// known. A batch that resumes uses it to tell a finished output from an interrupted one.
    public static func incompleteness(of url: URL, expectedDuration: Double?) -> String? {
        // FFmpeg 5.1 cannot read an animated WebP: its chunks say how long it lasts.
        if let webp = AnimatedWebPInfo(contentsOf: url) {
            guard let expected = expectedDuration, DataEnd.fallsShort(webp.duration, of: expected, lasting: expected) else { return nil }
            return String(format: "lasts %.1f s where these settings make %.1f s", webp.duration, expected)
        }
        guard let info = try? probe(url, measuringBitRates: false), info.primaryVideo != nil, info.duration > 0 else {
            return "is not a complete video"
        }
        guard let census = try? PacketCensus.take(url), census.isWhole else {
            return "is cut short (its data ends before its last frame)"
        }
        if let expected = expectedDuration, DataEnd.fallsShort(census.videoEnd, of: expected, lasting: expected) {
            return String(format: "lasts %.1f s where these settings make %.1f s", census.videoEnd, expected)
        }
        return nil
    }
}
