import Foundation
import ReelKit
import Testing

/// `reel compress --cut-silence/--cut-still` and `reel analyze --cut-silence` on real speech with
/// pauses (Fixtures/make-fixtures.sh `talk.mp4`: speech at 1.5-2.785, 4.785-6.015, 6.315-7.66,
/// 8.86-10.105 and 12.605-13.845 s of 15 s; the picture still over the 2.5 s pause only).
@Suite(.timeLimit(.minutes(5))) struct DeadAirCLITests {
    static func talk(in scratch: Scratch) async throws -> URL {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let made = try await Tool.run(root.appendingPathComponent("Fixtures/make-fixtures.sh").path, [scratch.url.path, "talk.mp4"])
        try #require(made.status == 0, "\(made.stderr)")
        return scratch.path("talk.mp4")
    }

    static func pairs(_ value: Any?) -> [[Double]] {
        ((value as? [[String: Double]]) ?? []).map { [$0["start"] ?? -1, $0["end"] ?? -1] }
    }

    @Test func cutSilenceWritesTheSpeechJoinedAndSaysWhatWasCut() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try await Self.talk(in: scratch)
        let run = try await Reel.run(["compress", "talk.mp4", "--cut-silence", "--speed", "ultrafast", "--json", "--quiet"],
                                     in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let json = try run.jsonObject()
        let deadAir = try #require(json["deadAir"] as? [String: Any])
        #expect(deadAir["silenceLevel"] as? String == "4%")
        #expect(deadAir["marginBefore"] as? Double == 0.2 && deadAir["minimumPause"] as? Double == 0.5)
        let expected = [[1.3, 2.985], [4.585, 7.86], [8.66, 10.305], [12.405, 14.045]]
        let kept = Self.pairs(deadAir["kept"])
        #expect(kept.count == expected.count, "\(kept)")
        for (found, wanted) in zip(kept, expected) {
            #expect(abs(found[0] - wanted[0]) <= 0.1 && abs(found[1] - wanted[1]) <= 0.1, "kept \(found), expected \(wanted)")
        }
        #expect(Self.pairs(deadAir["cuts"]).count == 5)
        let keptDuration = try #require(deadAir["keptDuration"] as? Double)
        #expect(abs(keptDuration + (deadAir["cutDuration"] as? Double ?? 0) - 15) < 1e-6)
        let result = try #require(json["result"] as? [String: Any])
        #expect(Self.pairs(result["keptRanges"]).count == 4)
        let output = try MediaInfo.probe(scratch.path("talk-compressed.mp4"))
        #expect(abs((output.primaryVideo?.duration ?? 0) - keptDuration) < 2.0 / 30, "\(output.duration) s for \(keptDuration) s kept")
        #expect(abs((output.primaryAudio?.duration ?? 0) - keptDuration) < 0.1)

        // The text summary says how much went.
        let text = try await Reel.run(["compress", "talk.mp4", "--cut-silence", "--speed", "ultrafast", "-o", "again.mp4"],
                                      in: scratch.url)
        #expect(text.status == 0, "\(text.stderr)")
        let cut = try #require(text.stdout.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("cut") })
        #expect(cut.contains("5 pauses below -34.0 dB") && cut.contains("of 15.00 s"), "\(cut)")
    }

    @Test func theDryRunListsTheCutsAndStartAndEndLimitThem() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try await Self.talk(in: scratch)
        let run = try await Reel.run(["compress", "talk.mp4", "--cut-silence", "--start", "4", "--end", "11", "--dry-run"],
                                     in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("cut: 3 pauses"), "\(run.stdout)")
        let keeps = try #require(run.stdout.split(separator: "\n").first { $0.contains("keeps (--ranges):") })
        #expect(keeps.hasSuffix("4.58-7.86,8.66-10.32"), "\(keeps)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("talk-compressed.mp4").path))

        let still = try await Reel.run(["compress", "talk.mp4", "--cut-still", "--dry-run", "--json"], in: scratch.url)
        #expect(still.status == 0, "\(still.stderr)")
        let deadAir = try #require(try still.jsonObject()["deadAir"] as? [String: Any])
        #expect(deadAir["stillPictureOnly"] as? Bool == true)
        let cuts = Self.pairs(deadAir["cuts"])
        #expect(cuts.count == 1 && abs((cuts.first?[0] ?? 0) - 10.305) < 0.1 && abs((cuts.first?[1] ?? 0) - 12.405) < 0.1, "\(cuts)")
    }

    @Test func settingsWithoutACutAndClashesAreUsageErrors() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try await Self.talk(in: scratch)
        for arguments in [["--min-pause", "1s"], ["--cut-silence", "--cut-still"], ["--cut-silence", "--copy"],
                          ["--cut-silence", "--silence-level", "0dB"], ["--cut-silence", "--silence-margin", "1,2,3"]] {
            let run = try await Reel.run(["compress", "talk.mp4"] + arguments, in: scratch.url)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
        }
        // Sound that never reaches the level: nothing to keep, said so, no output.
        let loud = try await Reel.run(["compress", "talk.mp4", "--cut-silence", "--silence-level", "-1dB"], in: scratch.url)
        #expect(loud.status == 1 && loud.stderr.contains("no sound above -1 dB"), "\(loud.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("talk-compressed.mp4").path))
        let parts = try await Reel.run(["split", "talk.mp4", "--cut-silence", "--silence-level", "-1dB", "-o", "parts"], in: scratch.url)
        #expect(parts.status == 1 && parts.stderr.contains("talk.mp4: nothing to keep: no sound above -1 dB"), "\(parts.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("parts").path))
    }

    @Test func splitWritesOnePiecePerPartBetweenPauses() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try await Self.talk(in: scratch)
        let run = try await Reel.run(["split", "talk.mp4", "--cut-silence", "-o", "parts", "--speed", "ultrafast", "--json"],
                                     in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let pieces = try #require(try run.jsonObject()["pieces"] as? [[String: Any]])
        #expect(pieces.map { $0["output"] as? String ?? "" }
            == ["parts/talk-part-001-1.32s.mp4", "parts/talk-part-002-4.58s.mp4", "parts/talk-part-003-8.66s.mp4",
                "parts/talk-part-004-12.40s.mp4"])
        for piece in pieces {
            let length = (piece["end"] as? Double ?? 0) - (piece["start"] as? Double ?? 0)
            let output = try MediaInfo.probe(scratch.path(piece["output"] as? String ?? ""))
            #expect(abs((output.primaryVideo?.duration ?? 0) - length) < 2.0 / 30, "\(piece)")
        }
        let both = try await Reel.run(["split", "talk.mp4", "--cut-silence", "--shots", "-o", "parts"], in: scratch.url)
        #expect(both.status == 2, "\(both.stderr)")
    }

    @Test func analyzeExportsTheCutList() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try await Self.talk(in: scratch)
        let edl = try await Reel.run(["analyze", "talk.mp4", "--cut-silence", "--format", "edl"], in: scratch.url)
        #expect(edl.status == 0, "\(edl.stderr)")
        let events = edl.stdout.split(separator: "\n").filter { $0.hasPrefix("00") }
        #expect(events.count == 4, "\(edl.stdout)")
        // The first kept part, 1.32-3.00 s at 30 fps, laid from the record side's start.
        #expect(events.first?.hasSuffix("00:00:01:10 00:00:03:00 00:00:00:00 00:00:01:20") == true, "\(events)")
        let csv = try await Reel.run(["analyze", "talk.mp4", "--cut-silence", "--format", "csv", "--no-faces", "-q"], in: scratch.url)
        #expect(csv.status == 0, "\(csv.stderr)")
        let rows = csv.stdout.split(separator: "\n")
        #expect(rows.filter { $0.hasPrefix("kept,") }.count == 4 && rows.filter { $0.hasPrefix("cut,") }.count == 5, "\(csv.stdout)")
    }
}
