import Foundation
import Testing
@testable import ReelMedia

/// The image and video assets are one generic type under MediaIntelligence's two names: the
/// spellings Apple's samples use build the same values, and the two stay different types.
@Suite(.timeLimit(.minutes(5))) struct MediaIntelligenceAssetTests {
    @Test func theSamplesSpellingsBuildTheSameAsset() {
        let url = URL(fileURLWithPath: "/videos/match.mp4")
        let spelled = MediaIntelligenceVideoAsset(id: MediaIntelligenceVideoAsset.ID(url.lastPathComponent), kind: .url(url))
        let inferred = MediaIntelligenceVideoAsset(id: .init("match.mp4"), kind: MediaIntelligenceVideoAsset.Kind.url(url))
        #expect(spelled == inferred)
        #expect(spelled.id.rawValue == "match.mp4" && spelled.kind.url == url)
        let byURL = MediaIntelligenceVideoAsset(url: url)
        #expect(byURL.id == MediaIntelligenceAssetID("/videos/match.mp4") && byURL.kind.url == url)
        #expect(byURL != spelled)
    }

    @Test func anImageAssetIsNotAVideoAsset() {
        let url = URL(fileURLWithPath: "/photos/record-42.jpg")
        let image: Any = MediaIntelligenceImageAsset(id: MediaIntelligenceImageAsset.ID("record-42"), kind: .url(url))
        let video: Any = MediaIntelligenceVideoAsset(id: "record-42", kind: .url(url))
        #expect(!(image is MediaIntelligenceVideoAsset))
        #expect(!(video is MediaIntelligenceImageAsset))
        #expect(image is MediaIntelligenceImageAsset && video is MediaIntelligenceVideoAsset)
    }
}
