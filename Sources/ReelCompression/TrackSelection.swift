import Foundation
import ReelMedia
import ReelSupport

/// Which of the source's audio tracks a compression keeps.
public enum AudioTrackSelection: Sendable, Equatable, Codable {
    /// The main one: the track FFmpeg's stream selection pairs with the video (usually the
    /// default track, or the first).
    case primary
    /// The `n`-th audio track in file order, counting from 1 (as `reel probe` lists them).
    case number(Int)
    /// Every audio track, in file order, each with its language and name.
    case all
}

extension CompressionPlanner {
    /// The source audio streams the output keeps, in output order (none when audio is off).
    func keptAudioStreams() throws(ReelError) -> [StreamInfo] {
        guard config.audioBitrate > 0, !config.fileType.isAnimatedImage else { return [] }
        let tracks = source.audioStreams
        switch config.audioTracks {
        case .primary:
            return source.primaryAudio.map { [$0] } ?? []
        case .all:
            return tracks
        case .number(let number):
            guard tracks.indices.contains(number - 1) else {
                let has = tracks.isEmpty ? "has no audio track" : "has \(tracks.count) audio track\(tracks.count == 1 ? "" : "s")"
                throw .invalidConfiguration("there is no audio track \(number): the source \(has)", file: source.url)
            }
            return [tracks[number - 1]]
        }
    }

    /// The source text subtitle streams the output carries as `mov_text`.
    var keptSubtitleStreams: [StreamInfo] {
        guard config.keepsSubtitles, !config.fileType.isAnimatedImage else { return [] }
        return source.streams.filter { $0.kind == .subtitle && $0.isTextSubtitle == true }
    }

    /// The tracks a lossless cut to `.mov` carries beside the picture and sound: the other video
    /// tracks (a Cinematic video's disparity track) and QuickTime timed metadata (`mebx`, its
    /// focus decisions). Other outputs, and re-encodes, leave them out.
    var keptCopyCompanions: (auxiliaryVideo: [StreamInfo], timedMetadata: [StreamInfo]) {
        guard config.streamCopy, config.fileType == .mov else { return ([], []) }
        return (source.streams.filter { $0.role == .auxiliaryVideo },
                source.streams.filter { $0.kind == .data && $0.codecName == "mebx" })
    }

    /// Every source track the output does not carry, and why.
    func droppedTracks(keeping kept: Set<Int>) -> [DroppedTrack] {
        source.streams.compactMap { stream in
            if stream.index == source.primaryVideoStreamIndex || kept.contains(stream.index) { return nil }
            let reason: String
            if config.fileType.isAnimatedImage, stream.role != .primaryVideo {
                return DroppedTrack(index: stream.index, role: stream.role, codecName: stream.codecName,
                                    handlerName: stream.handlerName, reason: "a \(config.fileType.rawValue.uppercased()) holds pictures only")
            }
            switch stream.role {
            case .primaryAudio, .auxiliaryAudio:
                reason = config.audioBitrate <= 0
                    ? "audio disabled (audioBitrate <= 0)"
                    : "another audio track was chosen (audioTracks; reel compress --audio-track N|all)"
            case .auxiliaryVideo:
                reason = "auxiliary video track (e.g. depth/disparity or a second angle); only the primary video is encoded"
                    + " (a lossless cut to .mov, --copy, keeps it)"
            case .coverArt: reason = "cover art"
            case .data:
                reason = stream.codecName == "mebx" ? "timed metadata (a lossless cut to .mov, --copy, keeps it)" : "data track"
            case .subtitle:
                reason = !config.keepsSubtitles ? "subtitles not kept (keepsSubtitles = false)"
                    : stream.isTextSubtitle == true ? "subtitles not kept"
                    : "picture subtitles (\(stream.codecName)) cannot become MP4 text subtitles (mov_text)"
            case .primaryVideo, .other: reason = "not supported in the output"
            }
            return DroppedTrack(index: stream.index, role: stream.role, codecName: stream.codecName,
                                handlerName: stream.handlerName, reason: reason)
        }
    }
}
