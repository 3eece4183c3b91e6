import Foundation
import Testing
@testable import ReelAnalysis
@testable import ReelKit

/// The video analyzer sees faces in the same decode: where, how big, how central.
@Suite(.timeLimit(.minutes(5))) struct AnalyzerFacePresenceTests {
    @Test func facesAreFoundOnTheSearchedSamplesOnly() async throws {
        let directory = try Fixtures.scratchDirectory()
        // 4 s of a portrait, 4 s of the astronaut (a smaller face), 4 s of a cat.
        let video = try FaceFixtures.slideshow(["obama.jpg", "astronaut.png", "chelsea.png"], seconds: 4, as: "three.mp4", in: directory)
        let analysis = try await VideoAnalyzer().analysis(of: MediaIntelligenceVideoAsset(url: video))
        // At least 12 searched samples however short the video: every second of these 12.
        #expect(analysis.faces.count == 12, "\(analysis.faces.map(\.time.seconds))")
        let withFaces = analysis.faces.filter { $0.presence.count > 0 }.map { Int($0.time.seconds) }
        #expect(withFaces.allSatisfy { $0 < 8 } && withFaces.count >= 6, "faces at \(withFaces)")
        let portrait = try #require(analysis.faces.first { $0.time.seconds < 1 }?.presence)
        #expect(portrait.count == 1 && portrait.largestArea > 0.05 && portrait.centrality > 0.5, "\(portrait)")
        let first = try #require(analysis.segments.first)
        #expect(first.features.faceShare > 0.7 && first.features.faceArea > 0.05, "\(first.features)")
        #expect(analysis.segments.last?.features.faceShare == 0)
    }

    /// A QCIF-sized video (as old phones and video calls made) has faces smaller than the
    /// 80 pixels the detector needs: its pictures are searched enlarged, up to twice.
    @Test func facesInSmallVideosAreFound() async throws {
        let directory = try Fixtures.scratchDirectory()
        let video = directory.appendingPathComponent("small.mp4")
        try Fixtures.run("/usr/bin/ffmpeg", [
            "-v", "error", "-y", "-loop", "1", "-framerate", "25", "-t", "4", "-i", try FaceFixtures.photo("obama.jpg").path,
            "-vf", "scale=-2:144,format=yuv420p", "-c:v", "libx264", "-preset", "ultrafast", "-threads", "2", video.path,
        ])
        let analysis = try await VideoAnalyzer().analysis(of: MediaIntelligenceVideoAsset(url: video))
        let found = analysis.faces.filter { $0.presence.count > 0 }
        #expect(found.count >= 6, "\(analysis.faces.map { ($0.time.seconds, $0.presence.count) })")
    }

    /// An anamorphic video (an HDV camcorder's 1440 pixels shown as 1920) stores faces
    /// squeezed to three quarters of their width: searched at the stored shape, this portrait's
    /// face was narrower than the 80 pixels the detector needs, and none was found. Searched with
    /// square pixels, it is.
    @Test func facesInAnamorphicVideoAreSearchedAtTheirShownShape() async throws {
        let directory = try Fixtures.scratchDirectory()
        let video = directory.appendingPathComponent("anamorphic.mp4")
        try Fixtures.run("/usr/bin/ffmpeg", [
            "-v", "error", "-y", "-loop", "1", "-framerate", "25", "-t", "4", "-i", try FaceFixtures.photo("biden.jpg").path,
            "-vf", "scale=trunc(iw*3/8)*2:trunc(ih/2)*2,setsar=4/3,format=yuv420p", "-c:v", "libx264", "-preset", "ultrafast",
            "-threads", "2", video.path,
        ])
        let info = try MediaInfo.probe(video)
        #expect(abs((info.primaryVideo?.video?.pixelAspectRatio ?? 1) - 4.0 / 3.0) < 1e-6)
        let analysis = try await VideoAnalyzer().analysis(of: MediaIntelligenceVideoAsset(url: video))
        let found = analysis.faces.filter { $0.presence.count > 0 }
        #expect(found.count >= 6, "\(analysis.faces.map { ($0.time.seconds, $0.presence.count) })")
    }

    /// Every shot is searched, however short: a 1.5 s shot of a face between two searches 4 s
    /// apart is searched on its first sample.
    @Test func theFirstSampleOfEveryShotIsSearched() async throws {
        let directory = try Fixtures.scratchDirectory()
        let video = try await offPool {
            try FaceFixtures.slideshow([("chelsea.png", 5), ("obama.jpg", 1.5), ("chelsea.png", 5.5)], keyframeInterval: 250,
                                       as: "short-shot.mp4", in: directory)
        }
        var options = VideoAnalyzer.Options()
        options.faces?.interval = 4
        options.faces?.minimumSearches = 1
        let analysis = try await VideoAnalyzer(options: options).analysis(of: MediaIntelligenceVideoAsset(url: video))
        let searched = analysis.faces.map(\.time.seconds)
        #expect(searched.contains { $0 >= 5 && $0 < 5.5 }, "searched at \(searched)")
        let found = analysis.faces.filter { $0.presence.count > 0 }.map(\.time.seconds)
        #expect(!found.isEmpty && found.allSatisfy { $0 >= 5 && $0 < 6.5 }, "faces at \(found)")
        #expect(searched.count <= 6, "every 4 s and after the two cuts: \(searched)")
    }

    /// A close-up of a face while someone speaks engages: Megamind.avi's man in glasses replying
    /// in close-up (8.34-11.26 s) was its dullest segment (level 0) when faces counted only by
    /// presence; the speaking-face cue lifts it above the woman's medium shots. (Her lines at
    /// 4.1-8.3 s, louder and with more movement, stay the highlight.)
    @Test func aSpeakingCloseUpOutranksTheMediumShotsOfADialogue() async throws {
        let film = try await offPool { try FaceFixtures.footage("Megamind.avi") }
        let asset = MediaIntelligenceVideoAsset(url: film)
        func closeUp(_ analysis: VideoAnalysis) throws -> EngagementSegment {
            try #require(analysis.segments.first { $0.timeRange.start.seconds > 8.3 && $0.timeRange.end.seconds > 11 })
        }
        let analysis = try await VideoAnalyzer().analysis(of: asset)
        let speaking = try closeUp(analysis)
        #expect(speaking.features.faceArea > 0.12 && speaking.features.speechLikeness > 0.5, "\(speaking.features)")
        let medium = analysis.segments.filter { $0.timeRange.end.seconds <= 4.2 && $0.timeRange.duration.seconds > 1 }
        #expect(medium.count >= 2 && medium.allSatisfy { $0.level < speaking.level },
                "\(analysis.segments.map { ($0.timeRange.start.seconds, $0.level) })")
        var presenceOnly = VideoAnalyzer.Options()
        presenceOnly.weights.weights["speakingFace"] = 0
        let unseen = try await VideoAnalyzer(options: presenceOnly).analysis(of: asset)
        // Its two black frames at the start are level 0, whatever smoothing lends them.
        let black = try #require(analysis.segments.first)
        #expect(black.features.blankFraction > 0.99 && black.level == 0, "\(black.level)")
        let withoutCue = try closeUp(unseen).level
        #expect(withoutCue < speaking.level - 1, "\(withoutCue) without the cue, \(speaking.level) with it")
    }

    @Test func searchesAreCloserInShortVideos() {
        let options = FacePresenceOptions()
        #expect(options.interval(forDuration: 600) == 2)
        #expect(abs(options.interval(forDuration: 4) - 1.0 / 3) < 1e-9)
        #expect(options.interval(forDuration: 0) == 2)
    }

    @Test func theFacePassCanBeTurnedOff() async throws {
        var options = VideoAnalyzer.Options()
        options.faces = nil
        let analysis = try await VideoAnalyzer(options: options).analysis(of: MediaIntelligenceVideoAsset(url: try Fixtures.clip("story.mp4")))
        #expect(analysis.faces.isEmpty)
        #expect(analysis.segments.allSatisfy { $0.features.faceShare == 0 })
        let searched = try await VideoAnalyzer().analysis(of: MediaIntelligenceVideoAsset(url: try Fixtures.clip("story.mp4")))
        #expect(searched.faces.count == 12 && searched.faces.allSatisfy { $0.presence.count == 0 })
        // Not weighted by default: the levels are the same with or without the face pass.
        #expect(searched.segments.map(\.level) == analysis.segments.map(\.level))
    }
}
