import Foundation
import ReelCompression
import ReelMedia
import ReelSupport

/// A long video's encode cut into chunks at shot boundaries, to be encoded anywhere (each chunk
/// by its index alone) and joined into a result equal to a single encode; see
/// Docs/distributed.md. Made by `ChunkPlan.make`, saved as JSON; `encodeChunk` and `assemble`
/// read it.
public struct ChunkPlan: Sendable, Codable, Equatable {
    /// The plan format this build writes and reads.
    public static let currentVersion = 1

    /// The plan format's version.
    public var version: Int
    /// SHA-256 of the plan's content: chunks carry it, so chunks of another plan are refused.
    public var id: String
    /// The file the plan is for.
    public var source: SourceFingerprint
    /// Settings every chunk is encoded with.
    public var settings: ChunkSettings
    /// The kept part of the source, on the API's timeline.
    public var range: TimeRange
    /// The chunk length asked for, in seconds.
    public var chunkLength: Double
    /// Pictures in the whole output.
    public var frameCount: Int
    /// The video chunks, in output order; each one's index is its position.
    public var chunks: [Chunk]
    /// The audio job's index (`chunks.count`), or `nil` when the output has no sound and no
    /// text subtitles (the audio job carries both).
    public var audioIndex: Int?
    /// Starts of the source's shots (after the first) inside the kept range, in seconds.
    public var shotStarts: [Double]

    /// What identifies the source file.
    public struct SourceFingerprint: Sendable, Codable, Equatable {
        /// The path the plan was made from (encode-chunk may be given another).
        public var path: String
        public var size: Int64
        /// Seconds, as probed.
        public var duration: Double
        /// SHA-256 of the first MiB.
        public var headSHA256: String
    }

    /// One video chunk: a frame-exact source range.
    public struct Chunk: Sendable, Codable, Equatable {
        public var index: Int
        /// First source instant of the chunk, on the API's timeline (exact).
        public var start: MediaTime
        /// End of the chunk (exclusive): the next chunk's start, or the kept range's end.
        public var end: MediaTime
        /// Where the chunk starts in the output.
        public var outputStart: MediaTime
        /// Pictures the chunk must hold.
        public var frames: Int
        /// When the chunk's first picture starts, from the chunk's start: 0, except in the first
        /// chunk when the video starts after the container (MPEG-TS, AVI with B frames).
        public var firstPicture: MediaTime
        /// Whether the chunk starts at a shot boundary (else at a keyframe or a plain frame).
        public var startsAtShot: Bool
        /// The chunk's share of the video bit rate, when the plan shares one out.
        public var videoBitrate: Int?
        /// Bytes of the source's pictures in the chunk (its measured complexity).
        public var sourceBytes: Int

        /// The chunk's length in seconds.
        public var duration: Double { (end - start).seconds }
    }

    /// Every job's index: the chunks', then the audio job's.
    public var jobCount: Int { chunks.count + (audioIndex == nil ? 0 : 1) }

    /// The file name of chunk `index`'s video.
    public static func chunkFileName(_ index: Int) -> String { String(format: "chunk-%04d.mp4", index) }
    /// The file name of the audio job's output.
    public static let audioFileName = "audio.m4a"
    /// The receipt written beside a job's output once it is complete.
    static func receiptName(_ job: ChunkJob) -> String {
        switch job {
        case .video(let index): String(format: "chunk-%04d.json", index)
        case .audio: "audio.json"
        }
    }

    /// The plan's content hash, over everything but `id`.
    func contentHash() throws(ReelError) -> String {
        var copy = self
        copy.id = ""
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return FileFingerprint.sha256(try encoder.encode(copy))
        } catch {
            throw .invalidConfiguration("the plan cannot be encoded: \(error)")
        }
    }

    /// Reads a plan saved with `write(to:)`.
    public static func load(from url: URL) throws(ReelError) -> ChunkPlan {
        let plan: ChunkPlan
        do {
            plan = try JSONDecoder().decode(ChunkPlan.self, from: Data(contentsOf: url))
        } catch {
            throw .invalidConfiguration("not a chunk plan written by 'reel plan': \(error.localizedDescription)", file: url)
        }
        guard plan.version == currentVersion else {
            throw .invalidConfiguration("plan version \(plan.version); this reel reads version \(currentVersion)", file: url)
        }
        guard try plan.contentHash() == plan.id else {
            throw .invalidConfiguration("the plan was edited after it was made (its id does not match its content)", file: url)
        }
        return plan
    }

    /// Saves the plan as JSON, under a temporary name renamed into place.
    public func write(to url: URL) throws(ReelError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try encoder.encode(self).write(to: url, options: .atomic)
        } catch {
            throw .invalidOutputPath(url, reason: error.localizedDescription)
        }
    }
}

/// One job of a chunk plan: a video chunk by index, or the audio.
public enum ChunkJob: Sendable, Equatable, CustomStringConvertible {
    case video(Int)
    case audio

    /// `audio`, or the chunk's number.
    public var description: String {
        switch self {
        case .video(let index): "\(index)"
        case .audio: "audio"
        }
    }

    /// The job named `text` (a chunk number, `audio`, or the audio job's number) in `plan`.
    public init(_ text: String, in plan: ChunkPlan) throws(ReelError) {
        if text == "audio" {
            guard plan.audioIndex != nil else { throw .invalidConfiguration("the plan has no audio job (the output has no sound or subtitles)") }
            self = .audio
            return
        }
        guard let index = Int(text), index >= 0, index < plan.jobCount else {
            throw .invalidConfiguration("no job '\(text)' in the plan: its jobs are 0...\(plan.jobCount - 1)"
                + (plan.audioIndex.map { " (\($0) is the audio)" } ?? ""))
        }
        self = index == plan.audioIndex ? .audio : .video(index)
    }
}
