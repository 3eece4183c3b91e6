internal import CFFmpeg
import ReelSupport

/// A decoded frame shrunk for analysis: planar 8-bit Y, U and V (chroma at half size).
package struct SmallPicture: Sendable {
    /// Presentation time of the decoded frame this came from (exact, in its stream's time base).
    package var time: MediaTime
    package var width: Int
    package var height: Int
    package var luma: [UInt8]
    package var chromaU: [UInt8]
    package var chromaV: [UInt8]
    /// A larger gray picture of the same frame, upright, for face detection (on some samples).
    package var faceLuma: GrayPicture?
}

/// An 8-bit gray picture, row after row.
package struct GrayPicture: Sendable {
    package var width: Int
    package var height: Int
    package var luma: [UInt8]

    /// Creates the value from every field.
    package init(
        width: Int,
        height: Int,
        luma: [UInt8]
    ) {
        self.width = width
        self.height = height
        self.luma = luma
    }

    /// The picture turned `clockwise` degrees (0, 90, 180, 270).
    package func rotated(clockwise: Int) -> GrayPicture {
        let turn = ((clockwise % 360) + 360) % 360
        guard turn != 0 else { return self }
        let outWidth = turn == 180 ? width : height, outHeight = turn == 180 ? height : width
        var result = [UInt8](repeating: 0, count: luma.count)
        for y in 0..<height {
            for x in 0..<width {
                let (nx, ny): (Int, Int)
                switch turn {
                case 90: (nx, ny) = (height - 1 - y, x)
                case 180: (nx, ny) = (width - 1 - x, height - 1 - y)
                default: (nx, ny) = (y, width - 1 - x)
                }
                result[ny * outWidth + nx] = luma[y * width + x]
            }
        }
        return GrayPicture(width: outWidth, height: outHeight, luma: result)
    }
}

/// Shrinks decoded frames with swscale's area filter into one reused small frame.
final class Downscaler {
    private let width: Int32
    private let height: Int32
    private var context: OpaquePointer?
    private let output: Frame

    init(width: Int, height: Int) throws(MediaFailure) {
        self.width = Int32(width)
        self.height = Int32(height)
        output = try Frame()
    }

    /// A scaler to the picture faces are searched on for frames like `frame`: square pixels (an
    /// anamorphic picture, a DVD's or an HDV camcorder's, would show its faces squeezed, and the
    /// face finder looks for faces of their real shape), the longer side `longerSide`, small
    /// videos (QCIF, 240p) enlarged up to twice, since their faces are smaller than the 80
    /// pixels the HOG detector needs.
    convenience init(facePictureOf frame: Frame, longerSide: Int) throws(MediaFailure) {
        let width = frame.shownWidth, height = Double(frame.height)
        let scale = min(Double(longerSide) / max(width, height, 1), 2)
        try self.init(width: max(Int(width * scale) / 2 * 2, 2), height: max(Int(height * scale) / 2 * 2, 2))
    }

    deinit { sws_freeContext(context) }

    /// Downscales `frame` (any pixel format) and copies out the small planes.
    func shrink(_ frame: Frame, time: MediaTime) throws(MediaFailure) -> SmallPicture {
        let source = frame.pointer.pointee
        context = sws_getCachedContext(
            context, source.width, source.height, AVPixelFormat(rawValue: source.format),
            width, height, AV_PIX_FMT_YUV420P, SWS_AREA, nil, nil, nil)
        guard let context else { throw .failed(.filter, "sws_getCachedContext", "unsupported frame format") }
        if !output.hasBuffers {
            try output.allocatePicture(width: width, height: height, format: AV_PIX_FMT_YUV420P.rawValue, stage: .filter)
        }
        try check(sws_scale_frame(context, output.pointer, frame.pointer), .filter, "sws_scale_frame")
        let small = output.pointer.pointee
        let w = Int(width), h = Int(height)
        return SmallPicture(
            time: time, width: w, height: h,
            luma: Self.copy(small.data.0, stride: Int(small.linesize.0), width: w, height: h),
            chromaU: Self.copy(small.data.1, stride: Int(small.linesize.1), width: (w + 1) / 2, height: (h + 1) / 2),
            chromaV: Self.copy(small.data.2, stride: Int(small.linesize.2), width: (w + 1) / 2, height: (h + 1) / 2),
            faceLuma: nil)
    }

    /// Downscales `frame` and copies out the luma plane alone.
    func shrinkLuma(_ frame: Frame) throws(MediaFailure) -> GrayPicture {
        let picture = try shrink(frame, time: .zero)
        return GrayPicture(width: picture.width, height: picture.height, luma: picture.luma)
    }

    private static func copy(_ plane: UnsafeMutablePointer<UInt8>?, stride: Int, width: Int, height: Int) -> [UInt8] {
        guard let plane else { return [] }
        var result = [UInt8](repeating: 0, count: width * height)
        result.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for row in 0..<height { (base + row * width).update(from: plane + row * stride, count: width) }
        }
        return result
    }
}
