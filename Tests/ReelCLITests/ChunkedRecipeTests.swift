import Foundation
import Testing

/// The recipes of Docs/distributed.md, run as written: the Kubernetes Jobs' commands with the
/// index Kubernetes gives, the Slurm scripts with the index Slurm gives (run by bash: there is
/// no Slurm here), and the GNU parallel script with this machine as its only login.
@Suite(.timeLimit(.minutes(6))) struct ChunkedRecipeTests {
    static let recipes = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Docs/distributed")

    /// A directory with `film.mov` (8 s with sound) and its plan in 2 s chunks; returns the job count.
    static func planned(in scratch: Scratch) async throws -> Int {
        _ = try TestClips.copy(.long, to: scratch.url, as: "film.mov")
        let run = try await Reel.run(["plan", "film.mov", "-o", "plan.json", "--chunk", "2s", "--speed", "ultrafast", "--json"],
                                     in: scratch.url)
        try #require(run.status == 0, "\(run.stderr)")
        let jobs = try #require(try run.jsonObject()["jobs"] as? Int)
        #expect(jobs == 5)
        return jobs
    }

    /// The output holds every picture of the 8 s clip, and its sound.
    static func checkOutput(_ url: URL) async throws {
        let probe = try await Tool.run("/usr/bin/env", [
            "ffprobe", "-v", "error", "-count_frames", "-show_entries", "stream=codec_type,nb_read_frames,duration",
            "-of", "csv=p=0", url.path])
        #expect(probe.status == 0 && probe.stderr.isEmpty, "\(probe.stderr)")
        let lines = probe.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("video,") && $0.hasSuffix(",240") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("audio,") }, "\(lines)")
    }

    /// The `command:` of a Job manifest (a YAML flow sequence, which is JSON).
    static func command(in manifest: String) throws -> [String] {
        let text = try String(contentsOf: recipes.appendingPathComponent(manifest), encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.contains("command: [") })
        let array = String(line[try #require(line.firstIndex(of: "["))...])
        return try #require(try JSONSerialization.jsonObject(with: Data(array.utf8)) as? [String])
    }

    @Test func kubernetesIndexedJobCommands() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let jobs = try await Self.planned(in: scratch)
        let manifest = try String(contentsOf: Self.recipes.appendingPathComponent("k8s-encode-job.yaml"), encoding: .utf8)
        #expect(manifest.contains("completionMode: Indexed"))
        let encode = try Self.command(in: "k8s-encode-job.yaml")
        #expect(encode.first == "reel")
        // The volume is mounted at /work: here, the scratch directory.
        let mapped = { (arguments: [String]) in arguments.dropFirst().map { $0.replacingOccurrences(of: "/work", with: scratch.url.path) } }
        for index in (0..<jobs).shuffled() {
            let run = try await Reel.run(mapped(encode), in: scratch.url, environment: ["JOB_COMPLETION_INDEX": "\(index)"])
            #expect(run.status == 0, "pod \(index): \(run.stderr)")
        }
        let assemble = try Self.command(in: "k8s-assemble-job.yaml")
        let run = try await Reel.run(mapped(assemble), in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        try await Self.checkOutput(scratch.path("film.mp4"))
    }

    @Test func slurmArrayAndDependentAssemble() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let jobs = try await Self.planned(in: scratch)
        let binary = try #require(Reel.binary)
        for index in 0..<jobs {
            let run = try await Tool.run("/usr/bin/env", [
                "WORK=\(scratch.url.path)", "REEL=\(binary.path)", "SLURM_ARRAY_TASK_ID=\(index)",
                "bash", Self.recipes.appendingPathComponent("slurm-encode.sbatch").path])
            #expect(run.status == 0, "task \(index): \(run.stderr)")
        }
        let run = try await Tool.run("/usr/bin/env", [
            "WORK=\(scratch.url.path)", "REEL=\(binary.path)", "bash", Self.recipes.appendingPathComponent("slurm-assemble.sbatch").path])
        #expect(run.status == 0, "\(run.stderr)")
        try await Self.checkOutput(scratch.path("film.mp4"))
    }

    @Test func gnuParallelScript() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let jobs = try await Self.planned(in: scratch)
        let binary = try #require(Reel.binary)
        try scratch.write(":\n", to: "hosts.txt")
        let run = try await Tool.run("/usr/bin/env", [
            "HOSTS=hosts.txt", "JOBS=\(jobs)", "REEL=\(binary.path)", "HOME=\(scratch.url.path)",
            "bash", "-c", "cd '\(scratch.url.path)' && '\(Self.recipes.appendingPathComponent("parallel.sh").path)'"])
        #expect(run.status == 0, "\(run.stderr)")
        try await Self.checkOutput(scratch.path("film.mp4"))
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.hasPrefix("chunks-") }
        #expect(left.isEmpty, "per-job directories left: \(left)")
    }
}
