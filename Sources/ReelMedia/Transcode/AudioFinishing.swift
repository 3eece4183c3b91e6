import Foundation
import ReelSupport

/// A linear loudness change for one audio track: a gain, and a true-peak limiter when the gain
/// would push the peaks over a ceiling.
package struct LoudnessAdjustment: Sendable, Equatable {
    /// The gain in dB.
    package var gain: Double
    /// The highest true peak allowed, in dBTP, when a limiter is needed (`nil`: the gain alone).
    /// The limiter runs on the sound oversampled four times, so it catches the peaks between
    /// samples too.
    package var peakCeiling: Double?

    /// Creates the value from every field.
    package init(gain: Double, peakCeiling: Double? = nil) {
        self.gain = gain
        self.peakCeiling = peakCeiling
    }
}

/// What is done to a track's joined sound as a whole, on the output timeline, before it is
/// encoded: the loudness change, then the fades in at the output's start and out at its end.
struct AudioFinishing: Equatable {
    /// The loudness change, when the sound is normalised.
    var loudness: LoudnessAdjustment?
    /// Seconds of fade in from silence at the output's start and out to silence at its end (0: none).
    var edgeFade = 0.0
    /// Where the output ends, in seconds (the fade out ends there).
    var outputEnd: Double?

    /// The limiter's look-ahead (its attack), in milliseconds.
    static let limiterAttack = 5.0
    /// The limiter's release, in milliseconds: slow enough not to pump or distort the sound
    /// between peaks.
    static let limiterRelease = 100.0

    /// The libavfilter chain for sound at `rate` Hz (empty when nothing is done).
    func filters(rate: Int) -> [String] {
        var chain: [String] = []
        if let loudness {
            if abs(loudness.gain) >= 0.005 { chain.append(String(format: "volume=volume=%.3fdB", loudness.gain)) }
            if let ceiling = loudness.peakCeiling {
                let limit = pow(10, ceiling / 20)
                chain.append("aresample=\(rate * 4)")
                chain.append(String(format: "alimiter=limit=%.6f:attack=%g:release=%g:level=disabled:latency=1",
                                    min(max(limit, 0.0625), 1), Self.limiterAttack, Self.limiterRelease))
                chain.append("aresample=\(rate)")
            }
        }
        if edgeFade > 0 {
            chain.append(String(format: "afade=t=in:st=0:d=%.6f:curve=hsin", edgeFade))
            if let outputEnd, outputEnd > edgeFade {
                chain.append(String(format: "afade=t=out:st=%.6f:d=%.6f:curve=hsin", outputEnd - edgeFade, edgeFade))
            }
        }
        return chain
    }
}
