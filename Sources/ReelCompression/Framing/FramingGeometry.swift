import Foundation
import ReelMedia

/// The sizes of a reframing: the window on the upright picture, its size in stored pixels,
/// and the output's shown size.
struct FramingGeometry {
    /// The upright picture as shown (square pixels).
    let shownWidth: Double
    let shownHeight: Double
    /// The decoded picture's stored size and clockwise rotation.
    let storedWidth: Int
    let storedHeight: Int
    let rotation: Int
    let aspect: AspectRatio

    /// The geometry of reframing `picture` to `aspect`; `nil` when the picture already has that
    /// shape (within 1%): nothing to crop.
    init?(_ picture: VideoStreamInfo, aspect: AspectRatio) {
        let shown = picture.squarePixelVisualSize
        guard shown.width > 0, shown.height > 0, abs(shown.width / shown.height / aspect.value - 1) > 0.01 else { return nil }
        shownWidth = shown.width
        shownHeight = shown.height
        storedWidth = picture.width
        storedHeight = picture.height
        rotation = picture.rotation
        self.aspect = aspect
    }

    /// Whether the window spans the picture's height and moves left and right.
    var movesHorizontally: Bool { shownWidth / shownHeight > aspect.value }

    /// The window's share of the upright picture along the axis it moves on.
    var windowShare: Double {
        movesHorizontally ? shownHeight * aspect.value / shownWidth : shownWidth / aspect.value / shownHeight
    }

    /// The window on the upright picture, normalized, at `position` along its axis.
    func uprightWindow(at position: Double) -> CGRect {
        movesHorizontally ? CGRect(x: position, y: 0, width: windowShare, height: 1) : CGRect(x: 0, y: position, width: 1, height: windowShare)
    }

    /// The window's size in stored pixels, even.
    var storedCrop: (width: Int, height: Int) {
        let box = SubjectLocator.stored(uprightWindow(at: 0), rotation: rotation)
        func even(_ value: Double, _ limit: Int) -> Int { min(max(Int(value.rounded()) / 2 * 2, 2), limit / 2 * 2) }
        return (even(Double(box.width) * Double(storedWidth), storedWidth), even(Double(box.height) * Double(storedHeight), storedHeight))
    }

    /// The output's upright shown size: the window at square pixels, its longer side at most
    /// `limit` and never more than the source has, both sides even; the aspect exact up to the
    /// even rounding.
    func outputSize(limit: Int?) -> (width: Int, height: Int) {
        let window = uprightWindow(at: 0)
        let width = Double(window.width) * shownWidth, height = Double(window.height) * shownHeight
        let longer = max(width, height)
        let scale = min(Double(limit ?? Int.max) / longer, 1)
        func even(_ value: Double) -> Int { max(2, Int(value) / 2 * 2) }
        return (even(width * scale), even(height * scale))
    }

    /// The transcoder's plan for `path`: every point's window in stored pixels, on the file's
    /// clock (`origin` is the container's start).
    func framingPlan(for path: CameraPath, origin: Double, fitFilter: String) -> FramingPlan {
        let crop = storedCrop
        let segments = path.shots.map { shot in
            var lefts: [Double] = [], tops: [Double] = []
            for position in shot.positions {
                let box = SubjectLocator.stored(uprightWindow(at: position), rotation: rotation)
                lefts.append(Double(box.minX) * Double(storedWidth))
                tops.append(Double(box.minY) * Double(storedHeight))
            }
            return FramingPlan.Segment(start: shot.start + origin, end: shot.end + origin, fits: shot.showsWholePicture,
                                       times: shot.times.map { $0 + origin }, lefts: lefts, tops: tops)
        }
        return FramingPlan(cropWidth: crop.width, cropHeight: crop.height, segments: segments, fitFilter: fitFilter)
    }

    /// The filters that show a whole picture of `displayed` size (in the encode's orientation)
    /// in an `output`-sized frame: fitted, with black bars or a blurred enlarged copy around.
    static func fitFilter(displayed: (width: Double, height: Double), output: (width: Int, height: Int), fill: FramingFill) -> String {
        func even(_ value: Double) -> Int { max(2, Int(value.rounded()) / 2 * 2) }
        let fit = min(Double(output.width) / displayed.width, Double(output.height) / displayed.height)
        let front = "scale=\(even(displayed.width * fit)):\(even(displayed.height * fit)):flags=bicubic,setsar=1"
        let (width, height) = output
        switch fill {
        case .black:
            return "\(front),pad=\(width):\(height):(ow-iw)/2:(oh-ih)/2:black"
        case .blur:
            // Blurred at a quarter size: the same look for a sixteenth of the work.
            let cover = max(Double(width) / displayed.width, Double(height) / displayed.height) / 4
            let small = (even(Double(width) / 4), even(Double(height) / 4))
            let back = "scale=\(max(even(displayed.width * cover), small.0)):\(max(even(displayed.height * cover), small.1)):flags=bilinear,"
                + "crop=\(small.0):\(small.1),boxblur=\(max(small.0, small.1) / 24 + 2):2,scale=\(width):\(height):flags=bilinear,setsar=1"
            return "split=2[fit][fill];[fill]\(back)[back];[fit]\(front)[front];[back][front]overlay=(W-w)/2:(H-h)/2"
        }
    }
}
