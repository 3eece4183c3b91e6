import Foundation
import ReelSupport

extension MediaInfo {
    /// Opens `url` and describes its container and streams.
    public static func probe(_ url: URL) throws(ReelError) -> MediaInfo {
        try probe(url, measuringBitRates: true)
    }

    /// Opens and probes `url` (the one probe of a job). Without `measuringBitRates`, streams
    /// whose header states no bit rate keep `bitRate` nil instead of costing a pass over the
    /// file (analysis needs no bit rates).
    public static func probe(_ url: URL, measuringBitRates: Bool) throws(ReelError) -> MediaInfo {
        try SourceCheck.requireReadableFile(url)
        do {
            let input = try InputFile(url: url)
            return try MediaProbe.describe(input, measuringBitRates: measuringBitRates)
        } catch {
            throw error.reelError(source: url, output: url)
        }
    }
}

extension InputFile {
    /// Opens the file `source` describes again, for reading the streams in `kept`, without
    /// probing it again where its header allows (see `matches(_:complete:)`). `complete`
    /// (the default) asks for every codec parameter a decoder with frame threads or a stream
    /// copy needs; a reader that only reads packets can do with less.
    static func reopen(_ source: MediaInfo, keeping kept: Set<Int>, complete: Bool = true) throws(MediaFailure) -> InputFile {
        try reopen(source.url, layout: source.layout, keeping: kept, complete: complete)
    }
}
