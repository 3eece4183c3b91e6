import Foundation
import Synchronization
@testable import ReelMedia
@testable import ReelSupport

/// Finds white flashes and beep onsets in a file, decoding it with ReelKit's analysis reader.
enum SyncProbe {
    static func events(in url: URL) throws -> (flashes: [Double], beeps: [Double]) {
        let audio = Mutex<[Float]>([])
        let readout = try AnalysisReader.read(
            source: try MediaInfo.probe(url), sampleRate: 1000, width: 32, height: 18, skipping: .none, shouldCancel: { false }, progress: { _ in },
            makeSink: { FlashCollector() },
            onAudio: { samples in audio.withLock { $0 += samples } })
        let flashes = readout.sinks.flatMap(\.flashes)
        let samples = audio.withLock { $0 }
        // Beep onsets: the first 1 ms window above a tenth of full scale after a quiet stretch.
        let rate = Double(AnalysisReader.audioSampleRate), window = Int(rate / 1000)
        var beeps: [Double] = []
        var quietSince = 0
        for start in stride(from: 0, to: samples.count - window, by: window) {
            let peak = samples[start..<(start + window)].map { abs($0) }.max() ?? 0
            if peak > 0.1 {
                if quietSince >= 100 { beeps.append(Double(start) / rate) }
                quietSince = 0
            } else {
                quietSince += 1
            }
        }
        return (flashes, beeps)
    }
}

/// Collects the times of bright (flash) pictures of one chunk.
private final class FlashCollector: AnalysisPictureSink {
    private let found = Mutex<[Double]>([])

    var flashes: [Double] { found.withLock { $0 } }

    func consume(_ picture: SmallPicture) {
        let mean = picture.luma.reduce(0) { $0 + Int($1) } / max(picture.luma.count, 1)
        if mean > 128 { found.withLock { $0.append(picture.time.seconds) } }
    }

    func reset() { found.withLock { $0 = [] } }
}
