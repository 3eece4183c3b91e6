import Foundation
import ReelCompression
import ReelMedia
import ReelSupport

/// What a finished chunk job wrote: kept beside its output as `chunk-NNNN.json` (or
/// `audio.json`), written after the output is renamed into place, so assemble knows the job
/// completed for this plan.
public struct ChunkReceipt: Sendable, Codable, Equatable {
    /// The plan's `id`.
    public var planID: String
    /// The job: a chunk number or `audio`.
    public var job: String
    /// The output's file name, in the chunk directory.
    public var file: String
    /// Pictures written (0 for the audio).
    public var frames: Int
    public var bytes: Int64
    /// Wall-clock seconds the job took.
    public var encodeSeconds: Double
    /// The machine that ran it.
    public var host: String
}

/// The starts of the shots a plan recorded, handed to a chunk's target-quality encode.
struct PlannedShots: ShotPlanner, Equatable {
    var starts: [Double]
    func shotStarts(of source: MediaInfo) async throws(ReelError) -> [Double] { starts }
}

extension ChunkPlan {
    /// Encodes one job of the plan into `directory`: chunk N's pictures (a separate encode
    /// starting with an IDR picture, at the plan's settings) or the whole video's sound. The
    /// output is written under a temporary name and renamed, then its receipt: a job run twice,
    /// or killed and run again, leaves one complete output. `source` replaces the plan's path
    /// (another machine's mount); the file must be the one the plan was made for.
    public func encodeChunk(
        _ job: ChunkJob, source: URL? = nil, into directory: URL, compressor: VideoCompressor = VideoCompressor(),
        progressHandler: (@Sendable (Double) -> Void)? = nil
    ) async throws(ReelError) -> ChunkReceipt {
        let started = Date()
        let url = source ?? URL(fileURLWithPath: self.source.path)
        let info = try await verifiedSource(url, compressor: compressor)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .invalidOutputPath(directory, reason: error.localizedDescription)
        }
        var config = settings.config
        let output: URL
        switch job {
        case .audio:
            guard audioIndex != nil else { throw .invalidConfiguration("the plan has no audio job", file: url) }
            output = directory.appendingPathComponent(Self.audioFileName)
            config.trimStartTime = range.start
            config.trimEndTime = range.end
            _ = try await compressor.encodeAudio(of: info, config: config, to: output, progressHandler: progressHandler)
        case .video(let index):
            guard chunks.indices.contains(index) else {
                throw .invalidConfiguration("no chunk \(index): the plan has chunks 0...\(chunks.count - 1)", file: url)
            }
            let chunk = chunks[index]
            output = directory.appendingPathComponent(Self.chunkFileName(index))
            config.trimStartTime = chunk.start
            config.trimEndTime = chunk.end
            config.audioBitrate = 0
            config.keepsSubtitles = false
            config.fileType = .mp4
            config.outputURL = output
            if let rate = chunk.videoBitrate {
                config.videoBitrate = rate
                if settings.twoPassShares {
                    config.targetFileSize = .bytes(ChunkSettings.chunkTarget(videoBitrate: rate, seconds: chunk.duration,
                                                                             frames: chunk.frames))
                }
            }
            if let quality = config.targetQuality {
                let inside = shotStarts.filter { $0 > chunk.start.seconds && $0 < chunk.end.seconds }
                config.targetQuality = TargetQuality(quality.metric, quality.value, shots: PlannedShots(starts: inside))
            }
            _ = try await compressor.compressChunk(info, config: config, fadesIn: index == 0, fadesOut: index == chunks.count - 1,
                                                   progressHandler: progressHandler)
        }
        Self.removeStaleTemporaries(of: output)
        let facts = try chunkFacts(output, job: job)
        let receipt = ChunkReceipt(
            planID: id, job: job.description, file: output.lastPathComponent, frames: facts?.videoFrames ?? 0,
            bytes: FileSize.of(output), encodeSeconds: Date().timeIntervalSince(started),
            host: ProcessInfo.processInfo.hostName)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let receiptURL = directory.appendingPathComponent(Self.receiptName(job))
        do {
            try encoder.encode(receipt).write(to: receiptURL, options: .atomic)
        } catch {
            throw .invalidOutputPath(receiptURL, reason: error.localizedDescription)
        }
        return receipt
    }

    /// Probes `url` and checks it is the file the plan was made for.
    func verifiedSource(_ url: URL, compressor: VideoCompressor) async throws(ReelError) -> MediaInfo {
        let info = try await compressor.probe(url)
        var problems: [String] = []
        if info.fileSize != source.size { problems.append("it has \(info.fileSize) bytes, the plan's file \(source.size)") }
        if abs(info.duration - source.duration) > 0.001 {
            problems.append(String(format: "it lasts %.3f s, the plan's file %.3f s", info.duration, source.duration))
        }
        if problems.isEmpty, try FileFingerprint.headHash(of: url) != source.headSHA256 {
            problems.append("its first MiB differs from the plan's file")
        }
        guard problems.isEmpty else {
            throw .invalidConfiguration("not the file the plan was made for (\(source.path)): " + problems.joined(separator: "; "),
                                        file: url)
        }
        return info
    }

    /// The facts of a video chunk's file, read back (nil for the audio).
    private func chunkFacts(_ url: URL, job: ChunkJob) throws(ReelError) -> ChunkFileFacts? {
        guard case .video = job else { return nil }
        return try translatingFailures(source: url, output: url) { () throws(MediaFailure) in try ChunkFileFacts.read(url) }
    }

    /// Removes what killed earlier runs of the same job left (their temporary files, untouched
    /// for 10 minutes: a running encode writes every few seconds, so a duplicate still running
    /// elsewhere keeps its file).
    private static func removeStaleTemporaries(of output: URL) {
        let directory = output.deletingLastPathComponent()
        let prefix = ".\(output.lastPathComponent).reel-tmp-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            let url = directory.appendingPathComponent(name)
            let modified = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
            if let modified, Date().timeIntervalSince(modified) > 600 { try? FileManager.default.removeItem(at: url) }
        }
    }
}
