// The usage examples of JMVideoCompressor's README (../shared/seeds/, 004), as printed there,
// with `import JMVideoCompressor` and `import AVFoundation` changed to `import ReelKit` and
// `import Foundation`. A test target holds no top-level statements, so each numbered step is
// the body of a function, and `compressor` and `sourceVideoURL` (steps 2) are its parameters.
// JMVideoCompressorSampleTests.swift runs them.

import Foundation
import ReelKit

// 2. Initialize the Compressor
func readmeStep2() -> (JMVideoCompressor, URL) {
    let compressor = JMVideoCompressor()
    let sourceVideoURL = URL(fileURLWithPath: "/path/to/your/input/video.mp4") // Replace with your video URL
    return (compressor, sourceVideoURL)
}

// 3. Basic Compression using Presets
func readmeStep3(compressor: JMVideoCompressor, sourceVideoURL: URL) async {
    do {
        // Get the default config for the desired quality
        var config = VideoQuality.mediumQuality.defaultConfig

        // Define where the compressed file should go
        let outputDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("CompressedVideos")
        try? FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        config.outputDirectory = outputDirectory // Set output directory in the config

        // Alternatively, set a specific output URL
        // let specificOutputURL = outputDirectory.appendingPathComponent("my_medium_video.mp4")
        // config.outputURL = specificOutputURL // If outputURL is set, outputDirectory is ignored

        print("Starting compression with medium quality preset...")

        // Compress with progress reporting using the modified config
        let result = try await compressor.compressVideo(
            sourceVideoURL,
            // Note: The 'quality' parameter provides the initial config,
            // but we pass our modified 'config' object for compression.
            config: config, // Pass the config with the output path set
            progressHandler: { progress in
                DispatchQueue.main.async {
                     print("Compression Progress: \(String(format: "%.0f%%", progress * 100))")
                }
            }
        )

        print("Compression successful!")
        print("Output URL: \(result.url.path)")
        print("Original Size: \(String(format: "%.2f MB", Double(result.analytics.originalFileSize) / (1024*1024)))")
        print("Compressed Size: \(String(format: "%.2f MB", Double(result.analytics.compressedFileSize) / (1024*1024)))")
        print("Ratio: \(String(format: "%.2f : 1", result.analytics.compressionRatio))")
        print("Time: \(String(format: "%.2f s", result.analytics.processingTime))")

    } catch let error as JMVideoCompressorError {
        print("Compression failed with error: \(error.localizedDescription)")
        // Handle specific JMVideoCompressorError cases if needed
    } catch {
        print("An unexpected error occurred: \(error.localizedDescription)")
    }
}

// 4. Compression with Custom Configuration (`audioCodec` is the test's: the README's
// `.aac_he_v1` unless the test asks for another)
func readmeStep4(compressor: JMVideoCompressor, sourceVideoURL: URL, audioCodec: AudioCodecType = .aac_he_v1) async {
    do {
        var customConfig = CompressionConfig.default // Start with default settings

        // --- Video Settings ---
        customConfig.videoCodec = .hevc // Use HEVC if supported
        customConfig.useExplicitBitrate = true // Use bitrate instead of quality factor
        customConfig.videoBitrate = 1_500_000 // 1.5 Mbps
        customConfig.useAdaptiveBitrate = true // Optional: Cap bitrate near source if source is lower
        customConfig.maxLongerDimension = 1280 // Set max length of the longer side to 1280p, maintain aspect ratio
        customConfig.fps = 24 // Target 24 FPS (will use frame reduction if source > 24)
        customConfig.forceVisualEncodingDimensions = true // Optional: Encode rotated videos with visual dimensions (e.g., 1080x1920)
        // customConfig.trimStartTime = CMTime(seconds: 5, preferredTimescale: 600) // Optional: Start trimming at 5 seconds
        // customConfig.trimEndTime = CMTime(seconds: 15, preferredTimescale: 600)   // Optional: End trimming at 15 seconds

        // --- Audio Settings ---
        customConfig.audioCodec = .aac_he_v1 // High-Efficiency AAC
        customConfig.audioCodec = audioCodec // (the test's choice, see above)
        customConfig.audioBitrate = 64_000 // 64 kbps
        customConfig.audioChannels = 1 // Mono audio

        // --- Output Settings ---
        let customOutputURL = FileManager.default.temporaryDirectory.appendingPathComponent("custom_compressed_\(UUID().uuidString).mp4")
        customConfig.outputURL = customOutputURL // Specify the exact output file URL
        // Note: If outputURL is set, outputDirectory is ignored.

        print("Starting compression with custom configuration...")
        let result = try await compressor.compressVideo(
            sourceVideoURL,
            config: customConfig,
            // Optional: Provide a frame reducer strategy
            // frameReducer: ReduceFrameRandomly(),
            progressHandler: { progress in
                DispatchQueue.main.async {
                    print("Custom Compression Progress: \(String(format: "%.0f%%", progress * 100))")
                }
            }
        )

        print("Custom compression successful!")
        print("Output URL: \(result.url.path)")
        // Access analytics as in the previous example...
        print("Analytics: \(result.analytics)")

    } catch JMVideoCompressorError.codecNotSupported(let codec) {
         print("Error: The selected codec (\(codec)) is not supported on this device.")
    } catch let error as JMVideoCompressorError {
         print("Compression failed with error: \(error.localizedDescription)")
    } catch {
         print("An unexpected error occurred: \(error.localizedDescription)")
    }
}

// 5. Cancelling Compression
func readmeStep5(compressor: JMVideoCompressor, sourceVideoURL: URL) -> Task<Void, Never> {
    // Somewhere in your code where compression is running:
    let compressionTask = Task {
        do {
            let result = try await compressor.compressVideo(sourceVideoURL, quality: .mediumQuality)
            // Handle success...
            _ = result
        } catch JMVideoCompressorError.cancelled {
            print("Compression was cancelled by the user.")
        } catch {
            // Handle other errors...
        }
    }

    // Elsewhere (e.g., button action):
    func userTappedCancelButton() {
        compressor.cancel() // Request cancellation
        // Optionally: compressionTask.cancel() // If you need to cancel the Swift Task itself
    }
    userTappedCancelButton()
    return compressionTask
}

// Frame Rate Reduction (VideoFrameReducer): Example
func readmeFrameReducerExample(compressor: JMVideoCompressor, sourceVideoURL: URL, myLowFPSConfig: CompressionConfig) async throws
    -> CompressionResult {
    let result = try await compressor.compressVideo(
        sourceVideoURL,
        config: myLowFPSConfig, // A config with config.fps = 15
        frameReducer: ReduceFrameRandomly() // Use the random reducer
    )
    return result
}
