// swift-tools-version:6.0
import PackageDescription

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
        .target(
            name: "ReelKit",
            dependencies: ["CFFmpeg"],
            plugins: ["EmbedPresets"]
        ),
        .target(name: "ReelArguments"),
        .executableTarget(
            name: "reel",
            dependencies: ["ReelKit", "ReelArguments"]
        ),
        .testTarget(name: "ReelKitTests", dependencies: ["ReelKit"]),
        .testTarget(name: "ReelArgumentsTests", dependencies: ["ReelArguments"]),
        .testTarget(name: "ReelCLITests", dependencies: ["ReelKit"]),
    ],
    swiftLanguageModes: [.v6]
)
