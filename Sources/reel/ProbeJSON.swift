import ReelKit

/// The `reel probe --json` object: container facts and every stream, with stable keys.
enum ProbeJSON {
    /// The whole file.
    static func info(_ info: MediaInfo) -> JSONValue {
        .object([
            ("file", .string(info.url.path)),
            ("container", .string(info.containerName)),
            ("duration", .init(info.duration)),
            ("startTime", .init(info.startTime)),
            ("size", .init(info.fileSize)),
            ("bitRate", .init(info.bitRate)),
            ("primaryVideoStream", .init(info.primaryVideoStreamIndex)),
            ("primaryAudioStream", .init(info.primaryAudioStreamIndex)),
            ("streams", .array(info.streams.map(stream))),
        ])
    }

    /// One stream.
    static func stream(_ stream: StreamInfo) -> JSONValue {
        .object([
            ("index", .init(stream.index)),
            ("kind", .string(stream.kind.rawValue)),
            ("role", .string(stream.role.rawValue)),
            ("codec", .string(stream.codecName)),
            ("profile", .init(stream.profile)),
            ("bitRate", .init(stream.bitRate)),
            ("duration", .init(stream.duration)),
            ("frameCount", .init(stream.frameCount)),
            ("handlerName", .init(stream.handlerName)),
            ("language", .init(stream.language)),
            ("textSubtitles", stream.isTextSubtitle.map { .bool($0) } ?? .null),
            ("video", stream.video.map(video) ?? .null),
            ("audio", stream.audio.map(audio) ?? .null),
        ])
    }

    /// Picture facts.
    private static func video(_ video: VideoStreamInfo) -> JSONValue {
        .object([
            ("width", .init(video.width)),
            ("height", .init(video.height)),
            ("visualWidth", .init(video.visualWidth)),
            ("visualHeight", .init(video.visualHeight)),
            ("rotation", .init(video.rotation)),
            ("frameRate", .init(video.frameRate)),
            ("baseFrameRate", .init(video.baseFrameRate)),
            ("variableFrameRate", .bool(video.isVariableFrameRate)),
            ("pixelFormat", .string(video.pixelFormat)),
            ("bitDepth", .init(video.bitDepth)),
            ("interlaced", .bool(video.isInterlaced)),
            ("color", .object([
                ("primaries", .init(video.color.primaries)),
                ("transfer", .init(video.color.transfer)),
                ("matrix", .init(video.color.matrix)),
                ("range", .init(video.color.range)),
            ])),
            ("isHDR", .bool(video.color.isHDR)),
            ("hdr", video.hdr.map(hdr) ?? .null),
        ])
    }

    /// HDR10 static metadata.
    private static func hdr(_ hdr: HDRMetadata) -> JSONValue {
        func pairs(_ values: [[Double]]?) -> JSONValue {
            values.map { .array($0.map { .array($0.map { JSONValue($0) }) }) } ?? .null
        }
        return .object([
            ("displayPrimaries", pairs(hdr.displayPrimaries)),
            ("whitePoint", hdr.whitePoint.map { .array($0.map { JSONValue($0) }) } ?? .null),
            ("minLuminance", .init(hdr.minLuminance)),
            ("maxLuminance", .init(hdr.maxLuminance)),
            ("maxContentLightLevel", .init(hdr.maxContentLightLevel)),
            ("maxFrameAverageLightLevel", .init(hdr.maxFrameAverageLightLevel)),
        ])
    }

    /// Sound facts.
    private static func audio(_ audio: AudioStreamInfo) -> JSONValue {
        .object([
            ("sampleRate", .init(audio.sampleRate)),
            ("channels", .init(audio.channels)),
            ("channelLayout", .init(audio.channelLayout)),
            ("sampleFormat", .string(audio.sampleFormat)),
        ])
    }
}
