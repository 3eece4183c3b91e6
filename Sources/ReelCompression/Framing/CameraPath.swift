import Foundation
import ReelMedia

/// Where a reframed output's window is on the source, shot by shot: the virtual camera's path,
/// worked out before encoding (a dry run shows it; a chunked encode shares it).
public struct CameraPath: Sendable, Equatable, Codable {
    /// One shot of a kept range (a cut or a range's edge starts the next).
    public struct Shot: Sendable, Equatable, Codable {
        /// Seconds on the file's timeline (zero is the container's start).
        public var start: Double
        public var end: Double
        /// Whether the shot shows the whole picture filled around (`Reframing.fill`): its faces
        /// did not fit one window.
        public var showsWholePicture: Bool
        /// Path points: seconds, and the window's leading edge (its left, or its top when the
        /// window moves vertically) as a share of the upright picture's width (or height).
        /// Between points the window moves linearly.
        public var times: [Double]
        public var positions: [Double]
    }

    /// The output's shape.
    public var aspect: AspectRatio
    /// The window's size as a share of the upright picture's width and height (one of them 1).
    public var windowWidth: Double
    public var windowHeight: Double
    /// Whether the window moves left and right (a wide source) rather than up and down.
    public var movesHorizontally: Bool
    /// The shots, in output order.
    public var shots: [Shot]

    /// The window at `seconds` (file timeline) as a rectangle of the upright picture normalized
    /// to 0...1, or `nil` where the shot shows the whole picture or no shot covers the time.
    public func window(at seconds: Double) -> CGRect? {
        guard let shot = shots.first(where: { $0.start <= seconds + 1e-6 && seconds < $0.end }) ?? shots.last(where: { $0.start <= seconds }),
              !shot.showsWholePicture else { return nil }
        let position = CameraPath.interpolate(shot.times, shot.positions, at: seconds)
        return movesHorizontally
            ? CGRect(x: position, y: 0, width: windowWidth, height: 1)
            : CGRect(x: 0, y: position, width: 1, height: windowHeight)
    }

    /// The largest move of the window between two frames `1 / frameRate` apart inside a shot,
    /// as a share of the window's own width (or height).
    public func largestStep(frameRate: Double) -> Double {
        let step = 1 / max(frameRate, 1)
        let extent = movesHorizontally ? windowWidth : windowHeight
        var largest = 0.0
        for shot in shots where !shot.showsWholePicture {
            var time = shot.start
            var previous = CameraPath.interpolate(shot.times, shot.positions, at: time)
            while time + step < shot.end {
                time += step
                let position = CameraPath.interpolate(shot.times, shot.positions, at: time)
                largest = max(largest, abs(position - previous) / max(extent, 1e-9))
                previous = position
            }
        }
        return largest
    }

    static func interpolate(_ times: [Double], _ values: [Double], at seconds: Double) -> Double {
        FramingPlan.interpolate(times, values, at: seconds)
    }
}
