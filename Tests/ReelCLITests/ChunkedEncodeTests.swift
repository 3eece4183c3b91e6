import Foundation
import Testing

/// `reel plan`, `reel encode-chunk` and `reel assemble` on a 60 s clip with cuts, flashes and
/// beeps (Fixtures/make-fixtures.sh `chunked.mp4`): jobs run as separate processes, in any
/// order, one killed and run again, and the result checked against the source with the ffmpeg
/// command-line tools.
@Suite(.timeLimit(.minutes(8))) struct ChunkedEncodeTests {
    static func clip(in scratch: Scratch) async throws -> URL {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let made = try await Tool.run(root.appendingPathComponent("Fixtures/make-fixtures.sh").path, [scratch.url.path, "chunked.mp4"])
        try #require(made.status == 0, "\(made.stderr)")
        return scratch.path("chunked.mp4")
    }

    @Test func chunksEncodedApartInAnyOrderJoinIntoWhatOneEncodeWouldWrite() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let source = try await Self.clip(in: scratch)
        let planned = try await Reel.run(["plan", "chunked.mp4", "-o", "plan.json", "--chunk", "15s", "--speed", "veryfast",
                                          "--json"], in: scratch.url)
        try #require(planned.status == 0, "\(planned.stderr)")
        let plan = try planned.jsonObject()
        let chunks = try #require(plan["chunks"] as? [[String: Any]])
        let jobs = try #require(plan["jobs"] as? Int)
        #expect(chunks.count >= 4)
        #expect(plan["audioIndex"] as? Int == chunks.count)
        #expect(jobs == chunks.count + 1)
        #expect(plan["frames"] as? Int == 1800)
        // Cuts land on the clip's shot boundaries (every 7.5 s).
        for chunk in chunks.dropFirst() {
            let start = try #require(chunk["start"] as? Double)
            #expect(abs(start / 7.5 - (start / 7.5).rounded()) < 0.01, "a cut at \(start) s is not at a shot")
        }

        // One job is killed midway; the others run at once, in shuffled order.
        let victim = 2
        let others = (0..<jobs).filter { $0 != victim }.shuffled()
        let running = try others.map { index in
            try Reel.start(["encode-chunk", "plan.json", "--index", "\(index)", "-o", "chunks"], in: scratch.url)
        }
        let killed = try await Self.killMidway(victim, in: scratch)
        #expect(killed, "chunk \(victim) could not be caught while it was encoding")
        for (index, process) in zip(others, running) {
            _ = await process.process.exit(timeout: 240)
            let run = try process.result()
            #expect(run.status == 0, "job \(index): \(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("chunks/chunk-0002.mp4").path))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("chunks/chunk-0002.json").path))
        let refused = try await Reel.run(["assemble", "plan.json", "--chunks", "chunks", "-o", "out.mp4"], in: scratch.url)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("1 job to run again: 2"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out.mp4").path))

        // Run again, twice at once (a duplicated task is harmless), then assemble.
        async let first = Reel.run(["encode-chunk", "plan.json", "--index", "2", "-o", "chunks"], in: scratch.url, timeout: 240)
        async let second = Reel.run(["encode-chunk", "plan.json", "--index", "2", "-o", "chunks"], in: scratch.url, timeout: 240)
        let reruns = try await [first, second]
        for run in reruns { #expect(run.status == 0, "\(run.stderr)") }
        let assembled = try await Reel.run(["assemble", "plan.json", "--chunks", "chunks", "-o", "out.mp4", "--json"], in: scratch.url)
        try #require(assembled.status == 0, "\(assembled.stderr)")
        #expect(try assembled.jsonObject()["frames"] as? Int == 1800)
        let output = scratch.path("out.mp4")

        // Every picture at the source's time; a keyframe at every chunk start.
        let sourceFrames = try await Self.frames(source)
        let outputFrames = try await Self.frames(output)
        #expect(outputFrames.count == 1800)
        #expect(outputFrames.map(\.time) == sourceFrames.map(\.time))
        let keyTimes = Set(outputFrames.filter(\.key).map(\.time))
        for chunk in chunks {
            let start = try #require(chunk["start"] as? Double)
            #expect(keyTimes.contains((start * 1000).rounded() / 1000), "no keyframe at chunk start \(start)")
        }
        // Plays through with no decode error.
        let decoded = try await Tool.run("/usr/bin/env", ["ffmpeg", "-v", "error", "-i", output.path, "-f", "null", "-"])
        #expect(decoded.status == 0 && decoded.stderr.isEmpty, "\(decoded.stderr)")
        let probed = try await Tool.run("/usr/bin/env", ["ffprobe", "-v", "error", "-show_frames", output.path])
        #expect(probed.status == 0 && probed.stderr.isEmpty, "\(probed.stderr)")

        // Sound continuous and in sync: a flash and a beep at every k + 0.5 s.
        let flashes = try await Self.flashes(output)
        let beeps = try await Self.beeps(output)
        #expect(flashes.count == 60, "flashes \(flashes)")
        #expect(beeps.count == 60, "beeps \(beeps)")
        for (index, (flash, beep)) in zip(flashes, beeps).enumerated() {
            #expect(abs(flash - (Double(index) + 0.5)) < 0.5 / 30, "flash \(index) at \(flash)")
            #expect(abs(beep - flash) < 1.0 / 30, "beep \(index) at \(beep), flash at \(flash)")
        }
        let durations = try await Tool.run("/usr/bin/env", [
            "ffprobe", "-v", "error", "-show_entries", "stream=duration", "-of", "csv=p=0", output.path])
        let lengths = durations.stdout.split(separator: "\n").compactMap { Double($0) }
        #expect(lengths.count == 2 && abs(lengths[0] - lengths[1]) < 0.05, "stream durations \(lengths)")
    }

    @Test func indexComesFromTheSchedulersEnvironment() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try TestClips.copy(.video, to: scratch.url, as: "clip.mp4")
        let planned = try await Reel.run(["plan", "clip.mp4", "-o", "plan.json", "--chunk", "1s", "--json"], in: scratch.url)
        try #require(planned.status == 0, "\(planned.stderr)")
        let audio = try #require(try planned.jsonObject()["audioIndex"] as? Int)
        let kubernetes = try await Reel.run(["encode-chunk", "plan.json", "-o", "chunks", "--json"], in: scratch.url,
                                            environment: ["JOB_COMPLETION_INDEX": "0"])
        #expect(kubernetes.status == 0, "\(kubernetes.stderr)")
        #expect(try kubernetes.jsonObject()["job"] as? String == "0")
        let slurm = try await Reel.run(["encode-chunk", "plan.json", "-o", "chunks", "--json"], in: scratch.url,
                                       environment: ["SLURM_ARRAY_TASK_ID": "\(audio)"])
        #expect(slurm.status == 0, "\(slurm.stderr)")
        #expect(try slurm.jsonObject()["job"] as? String == "audio")
        let none = try await Reel.run(["encode-chunk", "plan.json", "-o", "chunks"], in: scratch.url)
        #expect(none.status == 2)
        #expect(none.stderr.contains("JOB_COMPLETION_INDEX"))
        let beyond = try await Reel.run(["encode-chunk", "plan.json", "-o", "chunks", "--index", "\(audio + 1)"], in: scratch.url)
        #expect(beyond.status == 1)
        #expect(beyond.stderr.contains("no job '\(audio + 1)'"), "\(beyond.stderr)")
    }

    @Test func anotherFileOrAnEditedPlanIsRefused() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try TestClips.copy(.video, to: scratch.url, as: "clip.mp4")
        let planned = try await Reel.run(["plan", "clip.mp4", "-o", "plan.json", "--chunk", "1s"], in: scratch.url)
        try #require(planned.status == 0, "\(planned.stderr)")
        _ = try TestClips.copy(.long, to: scratch.url, as: "other.mp4")
        let wrong = try await Reel.run(["encode-chunk", "plan.json", "--index", "0", "-o", "chunks", "--source", "other.mp4"],
                                       in: scratch.url)
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("not the file the plan was made for"), "\(wrong.stderr)")
        let text = try String(contentsOf: scratch.path("plan.json"), encoding: .utf8)
        try text.replacingOccurrences(of: "\"frames\" : ", with: "\"frames\" : 1").write(
            to: scratch.path("edited.json"), atomically: true, encoding: .utf8)
        let edited = try await Reel.run(["encode-chunk", "edited.json", "--index", "0", "-o", "chunks"], in: scratch.url)
        #expect(edited.status == 1)
        #expect(edited.stderr.contains("edited after it was made"), "\(edited.stderr)")
    }

    /// Starts job `index` and kills it (SIGKILL) once its temporary output exists; true when
    /// the kill hit a running encode. Tries up to three times, in case the job finished first.
    static func killMidway(_ index: Int, in scratch: Scratch) async throws -> Bool {
        let prefix = String(format: ".chunk-%04d.mp4.reel-tmp-", index)
        let finished = String(format: "chunk-%04d.mp4", index)
        let directory = scratch.path("chunks").path
        // The watch runs on a thread of its own, not in the test's task: the whole suite's load
        // starved a polling task until the job was done (six tries in a row, once). The job
        // runs at the lowest priority so that under load it stays longer in its encode.
        for _ in 0..<6 {
            let job = try Reel.start(["encode-chunk", "plan.json", "--index", "\(index)", "-o", "chunks"], in: scratch.url)
            let pid = job.process.processIdentifier
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(pid), 19)
            let seen = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
                Thread.detachNewThread {
                    let deadline = Date().addingTimeInterval(60)
                    while Date() < deadline {
                        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
                        if names.contains(where: { $0.hasPrefix(prefix) }) {
                            kill(pid, SIGKILL)
                            done.resume(returning: true)
                            return
                        }
                        if names.contains(finished) { break }
                        usleep(500)
                    }
                    done.resume(returning: false)
                }
            }
            _ = await job.process.exit(timeout: 30)
            let result = try job.result()
            if result.status == 128 + SIGKILL && seen { return true }
            // It finished before it could be killed: remove its output and try again.
            for name in [finished, String(format: "chunk-%04d.json", index)] {
                try? FileManager.default.removeItem(at: scratch.path("chunks/" + name))
            }
        }
        return false
    }

    /// Every picture's presentation time (milliseconds, rounded) and whether it is a keyframe.
    static func frames(_ url: URL) async throws -> [(time: Double, key: Bool)] {
        let run = try await Tool.run("/usr/bin/env", [
            "ffprobe", "-v", "error", "-select_streams", "v", "-show_entries", "frame=pts_time,key_frame", "-of", "csv=p=0", url.path])
        return run.stdout.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let time = Double(fields[1]) else { return nil }
            return ((time * 1000).rounded() / 1000, fields[0] == "1")
        }.sorted { $0.time < $1.time }
    }

    /// Times of the white pictures (luma 235; the clip's pictures stay under 150).
    static func flashes(_ url: URL) async throws -> [Double] {
        let run = try await Tool.run("/usr/bin/env", [
            "ffprobe", "-v", "error", "-f", "lavfi", "-i", "movie=\(url.path),signalstats",
            "-show_entries", "frame=pts_time:frame_tags=lavfi.signalstats.YAVG", "-of", "csv=p=0"])
        return run.stdout.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let time = Double(fields[0]), let luma = Double(fields[1]), luma > 200 else { return nil }
            return time
        }
    }

    /// Times where sound starts after a silence: the beeps' onsets (not the end of the file,
    /// where silencedetect closes the last silence).
    static func beeps(_ url: URL) async throws -> [Double] {
        let run = try await Tool.run("/usr/bin/env", [
            "ffmpeg", "-hide_banner", "-nostats", "-i", url.path, "-vn", "-af", "silencedetect=noise=-30dB:d=0.2", "-f", "null", "-"])
        return run.stderr.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "silence_end: ") else { return nil }
            return Double(line[range.upperBound...].prefix { $0 != " " })
        }.filter { $0 < 59.9 }
    }
}
