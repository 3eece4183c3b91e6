import Foundation
import ReelMedia
import ReelSupport

/// What `ChunkPlan.assemble` joined, and how the chunks went.
public struct AssemblyReport: Sendable, Codable, Equatable {
    /// The joined file.
    public var output: URL
    public var frames: Int
    /// Seconds of video.
    public var duration: Double
    public var bytes: Int64
    /// Bytes of the audio job's output (nil without sound).
    public var audioBytes: Int64?
    /// Each chunk as its receipt and file report it.
    public var chunks: [ChunkSummary]
    /// The target size of the plan, when it had one.
    public var targetFileSize: Int64?
    /// How far the result is from the target: (bytes - target) / target (negative: under).
    public var targetMiss: Double?
    /// The chunks furthest over their share of the bit rate, when the target was missed.
    public var overBudgetChunks: [Int]
    /// Sum of every job's encode time, in seconds (one machine's work).
    public var totalEncodeSeconds: Double
    /// The longest job, in seconds (the wall time with one machine per job).
    public var longestJobSeconds: Double

    /// One chunk in the report.
    public struct ChunkSummary: Sendable, Codable, Equatable {
        public var index: Int
        public var frames: Int
        public var bytes: Int64
        public var encodeSeconds: Double
        public var host: String
        /// The bit rate planned for the chunk, when the plan shared one out.
        public var plannedBitrate: Int?
        /// The bit rate its video reached.
        public var achievedBitrate: Int
    }
}

extension ChunkPlan {
    /// Checks that every job's output in `directory` is complete and is what this plan asks
    /// for (its receipt names the plan; each chunk has its planned picture count, starts
    /// with a keyframe at 0 and shares the first chunk's codec headers), then joins them by
    /// stream copy into `output` (a temporary name renamed when complete). Missing or wrong
    /// jobs throw `ReelError.chunksNotReady` listing the jobs to run again.
    public func assemble(
        chunks directory: URL, to output: URL, progressHandler: (@Sendable (Double) -> Void)? = nil
    ) async throws(ReelError) -> AssemblyReport {
        let flag = CancellationFlag()
        let progress = ProgressReporter(progressHandler)
        let plan = self
        return try await BlockingWork.run(flag: flag) { () throws(ReelError) -> AssemblyReport in
            let (receipts, drift) = try plan.checkedReceipts(in: directory)
            let location = try OutputLocation.resolve(for: URL(fileURLWithPath: plan.source.path), finalURL: output)
            do throws(ReelError) {
                var joiner = ChunkJoiner(
                    chunks: plan.chunks.map { directory.appendingPathComponent(Self.chunkFileName($0.index)) },
                    offsets: plan.chunks.map(\.outputStart),
                    audio: plan.audioIndex == nil ? nil : directory.appendingPathComponent(Self.audioFileName),
                    outputPath: location.temporaryURL.path, formatName: plan.settings.config.fileType.muxerName,
                    shouldCancel: { flag.isRaised }, progress: { progress.report($0 * 0.98) })
                joiner.firstChunkDrift = drift
                _ = try translatingFailures(source: directory, output: location.temporaryURL) { () throws(MediaFailure) in
                    try joiner.run()
                }
                if flag.isRaised { throw .cancelled }
                try location.commit()
            } catch {
                location.abandon()
                throw location.naming(error)
            }
            progress.finish()
            return plan.report(output: location.finalURL, receipts: receipts)
        }
    }

    /// Every job's receipt, after checking its output, and how far chunk 0's first picture
    /// reads from where it was planned (see `ChunkJoiner.firstChunkDrift`); throws
    /// `chunksNotReady` listing the jobs to rerun.
    private func checkedReceipts(in directory: URL) throws(ReelError) -> ([String: ChunkReceipt], MediaTime) {
        var drift = MediaTime.zero
        var receipts: [String: ChunkReceipt] = [:]
        var rerun: [String] = []
        var problems: [String] = []
        var reference: ChunkFileFacts?
        let jobs: [ChunkJob] = chunks.map { .video($0.index) } + (audioIndex == nil ? [] : [.audio])
        for job in jobs {
            let name: String
            if case .video(let index) = job { name = Self.chunkFileName(index) } else { name = Self.audioFileName }
            let file = directory.appendingPathComponent(name)
            let problem: String? = {
                guard FileManager.default.fileExists(atPath: file.path) else { return "\(name) is missing" }
                guard let data = try? Data(contentsOf: directory.appendingPathComponent(Self.receiptName(job))),
                      let receipt = try? JSONDecoder().decode(ChunkReceipt.self, from: data) else {
                    return "\(name) has no receipt (its job did not finish)"
                }
                guard receipt.planID == id else { return "\(name) was encoded for another plan" }
                receipts[job.description] = receipt
                guard case .video(let index) = job else { return nil }
                guard let facts = try? ChunkFileFacts.read(file) else { return "\(name) cannot be read" }
                let chunk = chunks[index]
                if facts.videoFrames != chunk.frames { return "\(name) has \(facts.videoFrames) pictures, the plan \(chunk.frames)" }
                if !facts.startsWithKeyframe { return "\(name) does not start with a keyframe" }
                if abs(facts.firstPresentation - chunk.firstPicture.seconds) > 0.5 / max(settings.outputFrameRate, 1) {
                    return String(format: "\(name) starts at %.3f s, not %.3f s", facts.firstPresentation, chunk.firstPicture.seconds)
                }
                if let reference, facts.codecName != reference.codecName || facts.width != reference.width
                    || facts.height != reference.height || facts.headerHash != reference.headerHash {
                    return "\(name) was encoded with other settings (\(facts.codecName) \(facts.width)x\(facts.height)) than chunk 0"
                }
                if reference == nil {
                    reference = facts
                    drift = MediaTime(seconds: facts.firstPresentation - chunk.firstPicture.seconds, timescale: 1_000_000)
                }
                return nil
            }()
            if let problem {
                rerun.append(job.description)
                problems.append(problem)
            }
        }
        guard rerun.isEmpty else { throw .chunksNotReady(directory, rerun: rerun, problems: problems) }
        return (receipts, drift)
    }

    /// The report of a finished assembly.
    private func report(output: URL, receipts: [String: ChunkReceipt]) -> AssemblyReport {
        let bytes = FileSize.of(output)
        let summaries = chunks.map { chunk in
            let receipt = receipts[String(chunk.index)]
            let chunkBytes = receipt?.bytes ?? 0
            return AssemblyReport.ChunkSummary(
                index: chunk.index, frames: chunk.frames, bytes: chunkBytes, encodeSeconds: receipt?.encodeSeconds ?? 0,
                host: receipt?.host ?? "", plannedBitrate: chunk.videoBitrate,
                achievedBitrate: Int(Double(chunkBytes) * 8 / max(chunk.duration, 0.001)))
        }
        let times = receipts.values.map(\.encodeSeconds)
        let miss = settings.targetFileSize.map { (Double(bytes) - Double($0)) / Double($0) }
        var over: [Int] = []
        if let miss, miss > 0 {
            over = summaries.filter { ($0.plannedBitrate ?? 0) > 0 }
                .sorted { Double($0.achievedBitrate) / Double($0.plannedBitrate ?? 1) > Double($1.achievedBitrate) / Double($1.plannedBitrate ?? 1) }
                .prefix(3).filter { $0.achievedBitrate > $0.plannedBitrate ?? .max }.map(\.index)
        }
        return AssemblyReport(
            output: output, frames: frameCount, duration: range.duration.seconds, bytes: bytes,
            audioBytes: receipts["audio"]?.bytes, chunks: summaries, targetFileSize: settings.targetFileSize,
            targetMiss: miss, overBudgetChunks: over, totalEncodeSeconds: times.reduce(0, +),
            longestJobSeconds: times.max() ?? 0)
    }
}
