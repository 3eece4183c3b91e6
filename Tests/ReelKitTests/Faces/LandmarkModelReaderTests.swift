import Foundation
import Testing
@testable import ReelFaces
@testable import ReelMedia

/// The fast reader of dlib's model format (shape_predictor_reader.cpp) loads the 68-point model
/// that dlib's own reader loads: the same landmarks on real faces, and a damaged file is still
/// refused with dlib's error rather than read half-way.
@Suite(.timeLimit(.minutes(5))) struct LandmarkModelReaderTests {
    @Test func bothReadersPlaceTheSameLandmarksOnRealFaces() throws {
        let model = try #require(FaceModels.locateLandmarks68(), "run 'make models' for the 68-point model")
        let fast = try #require(FaceLandmarker(model: model))
        let dlib = try #require(FaceLandmarker(model: model, readsWithDlib: true))
        let finder = try #require(FacePresenceFinder())
        var compared = 0
        for name in ["obama.jpg", "obama2.jpg", "biden.jpg", "astronaut.png"] {
            let picture = try PictureReader.image(at: try FaceFixtures.photo(name), maximumSide: 960)
            let gray = FaceLandmarker.gray(picture)
            let width = Double(picture.width), height = Double(picture.height)
            for found in finder.faces(inGray: gray, width: picture.width, height: picture.height, minimumScore: 0.25) {
                let box = CGRect(x: found.box.minX * width, y: found.box.minY * height,
                                 width: found.box.width * width, height: found.box.height * height)
                let read = fast.expression(inGray: gray, width: picture.width, height: picture.height, box: box)
                let reference = dlib.expression(inGray: gray, width: picture.width, height: picture.height, box: box)
                #expect(read != nil && read == reference, "\(name)")
                compared += 1
            }
        }
        #expect(compared >= 4)
    }

    @Test func aTruncatedModelIsRefused() throws {
        let model = try #require(FaceModels.locateLandmarks68(), "run 'make models' for the 68-point model")
        let whole = try Data(contentsOf: model)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reel-landmarks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let truncated = directory.appendingPathComponent("shape_predictor_68_face_landmarks.dat")
        try whole.prefix(whole.count / 2).write(to: truncated)
        #expect(FaceLandmarker(model: truncated) == nil)
        let empty = directory.appendingPathComponent("empty.dat")
        try Data().write(to: empty)
        #expect(FaceLandmarker(model: empty) == nil)
    }
}
