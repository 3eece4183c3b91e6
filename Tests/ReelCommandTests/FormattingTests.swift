@testable import reel
import Testing

/// How the CLI says a file grew: "1.0x larger" said nothing when an output was 4% larger.
@Suite struct FormattingTests {
    @Test func growthReadsAsAShareBelowTwiceTheSize() {
        #expect(Formatting.growth(1.04) == "4% larger")
        #expect(Formatting.growth(1.0001) == "1% larger")
        #expect(Formatting.growth(1.5) == "50% larger")
        #expect(Formatting.growth(2.34) == "2.3x larger")
        #expect(Formatting.growth(250) == "250x larger")
    }
}
