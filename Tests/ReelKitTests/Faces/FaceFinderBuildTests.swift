import Foundation
import Testing
@testable import ReelFaces
@testable import ReelMedia

/// The HOG detector built for AVX2 (used where the CPU has it) finds what the baseline build
/// finds, on real portraits and on frames of real footage.
@Suite struct FaceFinderBuildTests {
    static func compare(_ gray: [UInt8], width: Int, height: Int, _ label: String) throws -> Int {
        let fast = try #require(FacePresenceFinder())
        let baseline = try #require(FacePresenceFinder(vectorExtensions: false))
        let one = fast.faces(inGray: gray, width: width, height: height, minimumScore: -0.5)
        let other = baseline.faces(inGray: gray, width: width, height: height, minimumScore: -0.5)
        #expect(one.count == other.count, "\(label): \(one) against \(other)")
        for (a, b) in zip(one, other) {
            #expect(a.box == b.box && abs(a.score - b.score) < 1e-4, "\(label): \(a) against \(b)")
        }
        return one.filter { $0.score >= 0.25 }.count
    }

    /// Where /proc/cpuinfo lists AVX2 and FMA, the fast build is the one in use.
    @Test func theAVX2BuildIsUsedWhereTheCPUHasIt() throws {
        let flags = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("flags") }?.split(separator: " ").map(String.init) ?? []
        let capable = flags.contains("avx2") && flags.contains("fma")
        #expect(try #require(FacePresenceFinder()).usesVectorExtensions == capable, "flags: avx2 and fma \(capable)")
        #expect(try #require(FacePresenceFinder(vectorExtensions: false)).usesVectorExtensions == false)
    }

    @Test func portraitsGiveTheSameFaces() throws {
        var faces = 0
        for name in ["obama.jpg", "obama2.jpg", "obama3.jpg", "biden.jpg", "astronaut.png"] {
            let picture = try PictureReader.image(at: try FaceFixtures.photo(name), maximumSide: 640)
            faces += try Self.compare(FaceLandmarker.gray(picture), width: picture.width, height: picture.height, name)
        }
        #expect(faces >= 5, "a face in each portrait")
    }

    /// The colour search the face index uses, enlarged once and not.
    @Test func colourSearchesGiveTheSameFaces() throws {
        let fast = try #require(FacePresenceFinder())
        let baseline = try #require(FacePresenceFinder(vectorExtensions: false))
        var faces = 0
        for name in ["obama.jpg", "obama2.jpg", "biden.jpg", "astronaut.png"] {
            let picture = try PictureReader.image(at: try FaceFixtures.photo(name), maximumSide: 400)
            for upsample in [0, 1] {
                let one = try fast.faces(in: picture, upsample: upsample, minimumScore: -0.5)
                let other = try baseline.faces(in: picture, upsample: upsample, minimumScore: -0.5)
                #expect(one.count == other.count, "\(name) x\(upsample): \(one) against \(other)")
                for (a, b) in zip(one, other) {
                    #expect([a.left, a.top, a.right, a.bottom] == [b.left, b.top, b.right, b.bottom] && abs(a.score - b.score) < 1e-4,
                            "\(name) x\(upsample): \(a) against \(b)")
                }
                faces += one.filter { $0.score >= 0.25 }.count
            }
        }
        #expect(faces >= 6, "faces found: \(faces)")
    }

    @Test func framesOfRealFootageGiveTheSameFaces() throws {
        let clip = try FaceFixtures.footage("Megamind.avi")
        let directory = try Fixtures.scratchDirectory("finder-builds")
        let raw = directory.appendingPathComponent(UUID().uuidString + ".gray")
        defer { try? FileManager.default.removeItem(at: raw) }
        try Fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", clip.path, "-vf", "fps=2,scale=480:-2,format=gray",
                                             "-f", "rawvideo", raw.path])
        let data = try Data(contentsOf: raw)
        let width = 480, height = 352
        let size = width * height
        #expect(data.count % size == 0 && data.count / size >= 20)
        var faces = 0
        for start in stride(from: 0, to: data.count - size + 1, by: size) {
            faces += try Self.compare(Array(data[start..<(start + size)]), width: width, height: height, "Megamind @ \(start / size)")
        }
        #expect(faces >= 10, "faces on the dialogue's frames: \(faces)")
    }
}
