import Foundation
import ReelMedia
import ReelSupport
import Synchronization

/// What one sampled frame looks like, measured on its shrunk planes (all 0...1).
public struct FrameFeatures: Sendable, Equatable {
    /// Exact presentation time of the decoded frame.
    public var time: MediaTime
    /// Mean brightness.
    public var brightness: Double
    /// Standard deviation of brightness.
    public var contrast: Double
    /// Mean absolute Laplacian of the luma: edges and fine detail; low when blurred.
    public var sharpness: Double
    /// Mean chroma distance from gray.
    public var colorfulness: Double
    /// Mean absolute Y/U/V difference to the previous sampled frame (0 for the first).
    public var change: Double
    /// The faces seen, on the samples the face pass looked at (`nil` on the others).
    public var faces: FacePresence?
    /// How much of the middle of the picture has colors the scenery along its edges lacks: a
    /// character or object in frame (0 for empty sky or bare ground; see `PictureContent`).
    public var subject: Double = 0
    /// How much the picture looks like text on a plain background (titles, credits).
    public var textLikeness: Double = 0
    /// Whether text was also looked for on the larger picture of the face pass.
    public var textChecked = false
    /// Change left after undoing the camera's movement since the previous sample: what moved
    /// in the scene itself.
    public var subjectMotion: Double = 0
    /// The camera's movement since the previous sample, as a share of the picture's width.
    public var cameraMotion: Double = 0

    /// Whether the frame is (nearly) black or blank.
    public var isBlank: Bool { brightness < 0.09 && contrast < 0.04 || contrast < 0.012 }
}

/// Where faces are in one sampled frame: how many, how big, how central.
public struct FacePresence: Sendable, Equatable, Codable {
    /// The faces' boxes, normalized to the upright picture (origin top left), largest first.
    public var boxes: [CGRect]
    /// How much the largest face smiles, 0...1, from dlib's 68 landmarks; nil where the 68-point
    /// model is missing (see `FaceModels`) or its landmarks could not be placed.
    public var smile: Double?
    /// Whether the largest face is turned to the camera; nil as for `smile`.
    public var facesCamera: Bool?

    /// Creates a presence from normalized boxes.
    public init(boxes: [CGRect]) {
        self.boxes = boxes.sorted { $0.width * $0.height > $1.width * $1.height }
    }

    /// How many faces.
    public var count: Int { boxes.count }
    /// The largest face's share of the picture (0 without faces).
    public var largestArea: Double { boxes.first.map { Double($0.width * $0.height) } ?? 0 }
    /// How central the largest face is: 1 in the middle, 0 at a corner (0 without faces).
    public var centrality: Double {
        guard let box = boxes.first else { return 0 }
        let dx = Double(box.midX) - 0.5, dy = Double(box.midY) - 0.5
        return max(0, 1 - (dx * dx + dy * dy).squareRoot() / 0.5.squareRoot())
    }
}

/// Audio measured over one short window.
public struct AudioFeatures: Sendable, Equatable {
    /// Window start in seconds.
    public var start: Double
    /// RMS loudness in dBFS (-100 for digital silence).
    public var loudness: Double
    /// Onset strength: the rise of energy between 20 ms steps (cheers, hits, speech attacks), 0...1.
    public var onset: Double
    /// Mean energy of each 20 ms step of the window (for telling speech from music).
    public var stepEnergies: [Float] = []
}

/// Computes `FrameFeatures` from a shrunk picture and the previous one.
enum PictureMeasurer {
    static func measure(_ picture: SmallPicture, previous: SmallPicture?) -> FrameFeatures {
        let luma = picture.luma
        let width = picture.width, height = picture.height
        var sum = 0.0, squares = 0.0
        for value in luma {
            let v = Double(value)
            sum += v
            squares += v * v
        }
        let count = Double(max(luma.count, 1))
        let mean = sum / count
        let variance = max(squares / count - mean * mean, 0)
        var laplacian = 0.0
        if width > 2 && height > 2 {
            for y in 1..<(height - 1) {
                let row = y * width
                for x in 1..<(width - 1) {
                    let center = 4 * Int(luma[row + x])
                    let around = Int(luma[row + x - 1]) + Int(luma[row + x + 1])
                        + Int(luma[row + x - width]) + Int(luma[row + x + width])
                    laplacian += Double(abs(center - around))
                }
            }
            laplacian /= Double((width - 2) * (height - 2))
        }
        var chroma = 0.0
        for index in picture.chromaU.indices {
            let u = Double(picture.chromaU[index]) - 128, v = Double(picture.chromaV[index]) - 128
            chroma += (u * u + v * v).squareRoot()
        }
        chroma /= Double(max(picture.chromaU.count, 1))
        var change = 0.0
        if let previous, previous.luma.count == luma.count {
            change = (difference(previous.luma, luma) * 2 + difference(previous.chromaU, picture.chromaU)
                + difference(previous.chromaV, picture.chromaV)) / 4
        }
        let content = PictureContent.measure(picture)
        let motion = previous.flatMap { GlobalMotion.estimate(from: $0, to: picture) }
        var features = FrameFeatures(
            time: picture.time, brightness: mean / 255, contrast: variance.squareRoot() / 255,
            sharpness: min(laplacian / 255, 1), colorfulness: min(chroma / 128, 1), change: change, faces: nil)
        features.subject = content.subject
        features.textLikeness = content.textLikeness
        features.subjectMotion = motion?.residual ?? 0
        features.cameraMotion = motion?.cameraShare(width: width) ?? 0
        return features
    }

    /// Mean absolute difference of two planes, 0...1.
    static func difference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 0 }
        var total = 0
        for index in a.indices { total += abs(Int(a[index]) - Int(b[index])) }
        return Double(total) / Double(a.count) / 255
    }
}

/// An `AudioMeasurer` that the audio decode fills from its worker thread.
final class AudioFeatureCollector: Sendable {
    private let measurer: Mutex<AudioMeasurer>

    init(sampleRate: Double) {
        measurer = Mutex(AudioMeasurer(sampleRate: sampleRate))
    }

    func append(_ samples: [Float]) { measurer.withLock { $0.append(samples) } }

    var windows: [AudioFeatures] { measurer.withLock { $0.windows } }
}

/// Turns mono 16 kHz samples into `AudioFeatures` windows, streaming.
struct AudioMeasurer {
    let sampleRate: Double
    let windowSeconds: Double
    private var pending: [Float] = []
    private var consumed = 0
    private var previousStepEnergy: Double = 0
    private(set) var windows: [AudioFeatures] = []

    /// Seconds per window unless told.
    static let defaultWindowSeconds = 0.1

    init(sampleRate: Double, windowSeconds: Double = defaultWindowSeconds) {
        self.sampleRate = sampleRate
        self.windowSeconds = windowSeconds
    }

    mutating func append(_ samples: [Float]) {
        pending += samples
        let size = Int(sampleRate * windowSeconds)
        let step = Int(sampleRate * 0.02)
        while pending.count >= size {
            var energy = 0.0
            var onset = 0.0
            var steps: [Float] = []
            for stepStart in stride(from: 0, to: size, by: step) {
                var stepEnergy = 0.0
                for index in stepStart..<min(stepStart + step, size) {
                    let value = Double(pending[index])
                    stepEnergy += value * value
                }
                energy += stepEnergy
                stepEnergy /= Double(step)
                steps.append(Float(stepEnergy))
                // Onsets: energy jumps, measured as the growth of log energy between 20 ms steps.
                let rise = log10((stepEnergy + 1e-7) / (previousStepEnergy + 1e-7))
                if rise > 0.3 && stepEnergy > 1e-4 { onset += min(rise / 2, 1) }
                previousStepEnergy = stepEnergy
            }
            let rms = (energy / Double(size)).squareRoot()
            windows.append(AudioFeatures(
                start: Double(consumed) / sampleRate,
                loudness: rms > 1e-5 ? 20 * log10(rms) : -100,
                onset: min(onset, 1), stepEnergies: steps))
            pending.removeFirst(size)
            consumed += size
        }
    }
}
