import Foundation
import ReelMedia
import ReelSupport

/// libFuzzer entry point (built only with `make fuzz`): the input bytes become a file, which is
/// probed and, when it has video, decoded for analysis over its first second. Any crash, hang
/// or sanitizer report is a finding; typed errors are the expected outcome for garbage.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProbeAndDecode(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let url = FuzzScratch.url
    guard FileManager.default.createFile(atPath: url.path, contents: Data(bytes: data, count: size)) else { return 0 }
    guard let info = try? MediaInfo.probe(url), info.primaryVideoStreamIndex != nil else { return 0 }
    let start = Date()
    let firstSecond = max(min(1 / max(info.duration, 1e-3), 1), 0)
    let reached = FuzzProgress()
    _ = try? AnalysisReader.read(
        source: info, sampleRate: 6, width: 64, height: 36, workers: 1,
        shouldCancel: { reached.value >= firstSecond || Date().timeIntervalSince(start) > 5 },
        progress: { reached.value = $0 },
        makeSink: { FuzzSink() }, onAudio: { _ in })
    return 0
}

/// One scratch file per fuzzing process, in memory where the system has /dev/shm.
enum FuzzScratch {
    static let url: URL = {
        let directory = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        return URL(fileURLWithPath: directory).appendingPathComponent("reel-fuzz-\(getpid()).bin")
    }()
}

/// The analysis progress, written by the decode's workers.
final class FuzzProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var reached = 0.0
    var value: Double {
        get { lock.withLock { reached } }
        set { lock.withLock { reached = newValue } }
    }
}

/// Takes the sampled pictures and drops them.
final class FuzzSink: AnalysisPictureSink {
    func consume(_ picture: SmallPicture) {}
    func reset() {}
}

@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// SwiftPM links an executable's entry as `ReelFuzz_main`; it hands control to libFuzzer.
@_cdecl("ReelFuzz_main")
public func reelFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return runFuzzerDriver(&count, &arguments) { data, size in fuzzProbeAndDecode(data, size) }
}
