// swift-tools-version:6.0
import PackageDescription

// Layers, bottom up; a target depends only on targets listed before it, so the compiler keeps
// the arrows pointing down (see Docs/architecture.md). ReelKit re-exports them all.
let package = Package(
    name: "Reel",
    products: [
        .library(name: "ReelKit", targets: ["ReelKit"]),
        .executable(name: "reel", targets: ["reel"]),
    ],
    targets: [
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat libavcodec libavutil libswscale libswresample libavfilter",
            providers: [
                .apt([
                    "libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev",
                    "libswresample-dev", "libavfilter-dev", "libx264-dev", "libx265-dev",
                ]),
            ]
        ),
        .executableTarget(name: "PresetEmbedder"),
        .plugin(
            name: "EmbedPresets",
            capability: .buildTool(),
            dependencies: ["PresetEmbedder"]
        ),
        // What every layer uses: errors, failure translation, blocking work, cancellation,
        // progress, the serial gate, output locations, time.
        .target(name: "ReelSupport"),
        // Which frames to keep when lowering the frame rate: strategies the transcode consults.
        .target(name: "ReelFrameReduction", dependencies: ["ReelSupport"]),
        // The only code that touches FFmpeg; its pointers cannot leave it (CFFmpeg is imported
        // internally, so no package or public declaration can mention an FFmpeg type).
        .target(name: "ReelMedia", dependencies: ["CFFmpeg", "ReelSupport", "ReelFrameReduction"]),
        .target(
            name: "ReelCompression",
            dependencies: ["ReelSupport", "ReelFrameReduction", "ReelMedia", "ReelFaces"],
            plugins: ["EmbedPresets"]
        ),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // dlib's face detector, landmarks and embeddings behind a plain C header. dlib is unusably
        // slow unoptimized, but no unsafeFlags(["-O2"]) here: a product with unsafe flags cannot be
        // used by a package that depends on ReelKit by version. The Makefile's debug builds pass
        // -Xcxx -O2 instead (see DEBUG_FLAGS there).
        .target(
            name: "CReelFaces",
            linkerSettings: [
                .linkedLibrary("dlib"), .linkedLibrary("blas"), .linkedLibrary("lapack"),
                .linkedLibrary("jpeg"), .linkedLibrary("png"), .linkedLibrary("z"),
            ]
        ),
        // FaceGroupAnalyzer: faces found, stored (SQLite) and grouped into people.
        .target(name: "ReelFaces", dependencies: ["ReelSupport", "ReelMedia", "CReelFaces", "CSQLite"]),
        .target(name: "ReelAnalysis", dependencies: ["ReelSupport", "ReelMedia", "ReelFaces"]),
        // Reels (highlight reels, thumbnails) on top of Compression and Analysis; the public
        // library re-exports every layer.
        .target(
            name: "ReelKit",
            dependencies: ["ReelSupport", "ReelFrameReduction", "ReelMedia", "ReelCompression", "ReelAnalysis", "ReelFaces"]
        ),
        .target(name: "ReelArguments"),
        .executableTarget(
            name: "reel",
            dependencies: ["ReelKit", "ReelArguments"]
        ),
        .testTarget(
            name: "ReelKitTests",
            dependencies: [
                "ReelKit", "ReelSupport", "ReelFrameReduction", "ReelMedia", "ReelCompression", "ReelAnalysis", "ReelFaces",
            ]
        ),
        .testTarget(name: "ReelArgumentsTests", dependencies: ["ReelArguments"]),
        // The CLI's commands in-process: their specs, and that each reads exactly what it declares.
        .testTarget(name: "ReelCommandTests", dependencies: ["reel", "ReelArguments"]),
        // The MediaIntelligence article's samples, compiled and run against ReelKit.
        .testTarget(name: "ArticleSampleTests", dependencies: ["ReelKit"]),
        // JMVideoCompressor's README examples, compiled and run against ReelKit.
        .testTarget(name: "JMVideoCompressorSampleTests", dependencies: ["ReelKit"]),
        // README.md's Swift snippets, compiled as written; each file sees only what it imports,
        // members included, as the snippets' own imports must be enough.
        .testTarget(
            name: "ReadmeSnippetTests", dependencies: ["ReelKit"],
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),
        .testTarget(name: "ReelCLITests", dependencies: ["ReelKit"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)

// The fuzz target exists only for `make fuzz` (REEL_FUZZ=1): libFuzzer supplies its main, so it
// cannot link in a normal build.
if Context.environment["REEL_FUZZ"] != nil {
    package.targets.append(.executableTarget(
        name: "ReelFuzz", dependencies: ["ReelMedia", "ReelSupport"],
        swiftSettings: [.unsafeFlags(["-parse-as-library", "-sanitize=fuzzer,address"])],
        linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]))
    package.products.append(.executable(name: "reel-fuzz", targets: ["ReelFuzz"]))
}
