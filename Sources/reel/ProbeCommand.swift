import Foundation
import ReelArguments
import ReelKit

/// `reel probe`: describes a media file as text or JSON.
struct ProbeCommand: ReelCommand {
    static func spec(presetNames: [String]) -> CommandSpec {
        CommandSpec(
            name: "probe",
            abstract: "Describe a media file: container, duration, size and every stream.",
            discussion: """
                Lists each stream with its codec, dimensions (coded and as displayed after \
                rotation), frame rate and whether it varies, bit rate, color and HDR tags, audio \
                rate and channels. Tracks that are not the main picture or sound (depth or \
                disparity video, data, cover art) are marked with their role.
                """,
            examples: ["reel probe holiday.mov", "reel probe holiday.mov --json | jq .streams"],
            options: ConsoleOptions.specs(.jsonOnly),
            positionals: [PositionalSpec(name: "INPUT", help: "The file to describe.")])
    }

    /// A probe is quick: an interrupt ends it the usual way.
    static var handlesSignals: Bool { false }

    /// The file.
    let input: InputItem
    let console: ConsoleOptions

    init(_ arguments: ParsedArguments, catalog: PresetCatalog) throws(CommandFailure) {
        input = InputItem(display: arguments.positional("INPUT") ?? "")
        do throws(ArgumentError) {
            console = try ConsoleOptions(arguments, .jsonOnly)
        } catch {
            throw CommandFailure(error)
        }
    }

    /// Probes the input, prints the description, and returns the exit status.
    func run(signals: SignalHandling) async -> Int32 {
        let info: MediaInfo
        do {
            info = try MediaInfo.probe(input.url)
        } catch {
            Console.error(ErrorText.line(for: error, input: input))
            return ExitStatus.failure
        }
        if console.json {
            Console.printOut(ProbeJSON.info(info).rendered())
        } else {
            Console.printOut(Self.text(info, name: input.display))
        }
        return ExitStatus.success
    }

    /// The human-readable description.
    static func text(_ info: MediaInfo, name: String) -> String {
        var lines = [name]
        let rows = [
            ("container", info.containerName),
            ("duration", Formatting.seconds(info.duration)),
            ("size", "\(Formatting.bytes(info.fileSize)) (\(info.fileSize) bytes)"),
            ("bitrate", Formatting.bitrate(Double(info.bitRate))),
            ("streams", "\(info.streams.count)"),
        ]
        lines += rows.map { "  " + Formatting.padded($0.0, 11) + $0.1 }
        lines.append("")
        let audioTracks = info.audioStreams.map(\.index)
        for stream in info.streams {
            lines += streamLines(stream, audioTrack: audioTracks.firstIndex(of: stream.index).map { $0 + 1 })
        }
        return lines.joined(separator: "\n")
    }

    /// The heading and detail lines of one stream (`audioTrack`: its number for `--audio-track`).
    private static func streamLines(_ stream: StreamInfo, audioTrack: Int?) -> [String] {
        var heading = "  #\(stream.index) \(stream.kind.rawValue)"
        if let audioTrack { heading += " track \(audioTrack)" }
        heading += ", \(stream.role.rawValue)"
        if let language = stream.language { heading += ", \(language)" }
        if stream.isTextSubtitle == true { heading += ", text" }
        let isPrimary = stream.role == .primaryVideo || stream.role == .primaryAudio
        if let handler = stream.handlerName, !handler.isEmpty, !isPrimary {
            heading += " \"\(handler)\""
        }
        heading += ": " + stream.codecName
        if let profile = stream.profile { heading += " (\(profile))" }
        var details: [String] = []
        if let video = stream.video {
            details += stream.role == .coverArt
                ? ["\(video.width)x\(video.height) still image"] : videoLines(video)
        }
        if let audio = stream.audio {
            var text = "\(audio.sampleRate) Hz, \(audio.channels) channel"
                + (audio.channels == 1 ? "" : "s")
            if let layout = audio.channelLayout { text += " (\(layout))" }
            details.append(text + ", \(audio.sampleFormat)")
        }
        var facts: [String] = []
        if let bitRate = stream.bitRate, bitRate > 0 {
            facts.append(Formatting.bitrate(Double(bitRate)))
        }
        if let duration = stream.duration { facts.append(Formatting.seconds(duration)) }
        if let frames = stream.frameCount {
            facts.append("\(frames) frame" + (frames == 1 ? "" : "s"))
        }
        if !facts.isEmpty { details.append(facts.joined(separator: ", ")) }
        return [heading] + details.map { "      " + $0 }
    }

    /// Dimensions, rotation, frame rate, pixel format, color and HDR of a video stream.
    private static func videoLines(_ video: VideoStreamInfo) -> [String] {
        var size = "\(video.width)x\(video.height)"
        if video.rotation != 0 {
            size += ", displayed \(video.visualWidth)x\(video.visualHeight) "
                + "(rotated \(video.rotation)° clockwise)"
        }
        var rate = "\(Formatting.frameRate(video.frameRate)) fps"
        if video.isVariableFrameRate {
            rate += " average, variable frame rate "
                + "(base \(Formatting.frameRate(video.baseFrameRate)))"
        }
        var lines = [size + ", " + rate]
        let tags = [video.color.primaries, video.color.transfer, video.color.matrix]
        var picture = "\(video.pixelFormat) \(video.bitDepth)-bit"
        if tags.contains(where: { $0 != nil }) {
            picture += ", color " + tags.map { $0 ?? "unspecified" }.joined(separator: "/")
        }
        if let range = video.color.range { picture += ", \(range) range" }
        if video.isInterlaced { picture += ", interlaced (deinterlaced when compressed)" }
        lines.append(picture)
        if video.color.isHDR || video.hdr != nil {
            var hdr = "HDR: " + hdrKind(video.color.transfer)
            if let metadata = video.hdr {
                if let peak = metadata.maxLuminance {
                    hdr += String(format: ", mastering peak %.0f cd/m²", peak)
                }
                if let cll = metadata.maxContentLightLevel { hdr += ", MaxCLL \(cll)" }
                if let fall = metadata.maxFrameAverageLightLevel { hdr += ", MaxFALL \(fall)" }
            }
            lines.append(hdr)
        }
        return lines
    }

    /// The HDR flavour a transfer function stands for.
    private static func hdrKind(_ transfer: String?) -> String {
        switch transfer {
        case "smpte2084": return "PQ"
        case "arib-std-b67": return "HLG"
        default: return "static metadata"
        }
    }
}
