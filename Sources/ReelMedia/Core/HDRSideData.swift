internal import CFFmpeg

/// Converts between FFmpeg's HDR side data structs and `HDRMetadata`.
enum HDRSideData {
    static func metadata(
        mastering: UnsafePointer<AVMasteringDisplayMetadata>?,
        contentLight: UnsafePointer<AVContentLightMetadata>?
    ) -> HDRMetadata? {
        var result = HDRMetadata()
        var found = false
        if let mastering, mastering.pointee.has_primaries != 0 || mastering.pointee.has_luminance != 0 {
            let value = mastering.pointee
            if value.has_primaries != 0 {
                result.displayPrimaries = [
                    [av_q2d(value.display_primaries.0.0), av_q2d(value.display_primaries.0.1)],
                    [av_q2d(value.display_primaries.1.0), av_q2d(value.display_primaries.1.1)],
                    [av_q2d(value.display_primaries.2.0), av_q2d(value.display_primaries.2.1)],
                ]
                result.whitePoint = [av_q2d(value.white_point.0), av_q2d(value.white_point.1)]
            }
            if value.has_luminance != 0 {
                result.minLuminance = av_q2d(value.min_luminance)
                result.maxLuminance = av_q2d(value.max_luminance)
            }
            found = true
        }
        if let contentLight {
            result.maxContentLightLevel = Int(contentLight.pointee.MaxCLL)
            result.maxFrameAverageLightLevel = Int(contentLight.pointee.MaxFALL)
            found = true
        }
        return found ? result : nil
    }

    /// The frame's HDR side data, if it carries any.
    static func metadata(of frame: UnsafePointer<AVFrame>) -> HDRMetadata? {
        let mutableFrame = UnsafeMutablePointer(mutating: frame)
        let mastering = av_frame_get_side_data(mutableFrame, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA)
        let light = av_frame_get_side_data(mutableFrame, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL)
        return metadata(
            mastering: mastering.flatMap { UnsafeRawPointer($0.pointee.data)?.assumingMemoryBound(to: AVMasteringDisplayMetadata.self) },
            contentLight: light.flatMap { UnsafeRawPointer($0.pointee.data)?.assumingMemoryBound(to: AVContentLightMetadata.self) })
    }

    /// x265 parameters (`master-display=...:max-cll=...`) that write the metadata as SEI.
    /// x265 wants primaries in 0.00002 units (G, B, R order) and luminance in 0.0001 cd/m².
    static func x265Parameters(for metadata: HDRMetadata) -> [String] {
        var parameters: [String] = []
        if let primaries = metadata.displayPrimaries, primaries.count == 3,
           let white = metadata.whitePoint, white.count == 2,
           let maxLuminance = metadata.maxLuminance, let minLuminance = metadata.minLuminance {
            func chroma(_ value: Double) -> Int { Int((value * 50_000).rounded()) }
            func point(_ xy: [Double]) -> String { "(\(chroma(xy[0])),\(chroma(xy[1])))" }
            let red = primaries[0], green = primaries[1], blue = primaries[2]
            parameters.append(
                "master-display=G\(point(green))B\(point(blue))R\(point(red))WP\(point(white))"
                    + "L(\(Int((maxLuminance * 10_000).rounded())),\(Int((minLuminance * 10_000).rounded())))")
        }
        if let maxCLL = metadata.maxContentLightLevel {
            parameters.append("max-cll=\(maxCLL),\(metadata.maxFrameAverageLightLevel ?? 0)")
        }
        if !parameters.isEmpty { parameters.append("hdr10=1") }
        return parameters
    }

    /// Adds the metadata as stream side data so the muxer writes `mdcv`/`clli` boxes.
    static func attach(_ metadata: HDRMetadata, to stream: UnsafeMutablePointer<AVStream>) {
        if let primaries = metadata.displayPrimaries, primaries.count == 3,
           let white = metadata.whitePoint, white.count == 2,
           let raw = av_stream_new_side_data(stream, AV_PKT_DATA_MASTERING_DISPLAY_METADATA,
                                             MemoryLayout<AVMasteringDisplayMetadata>.size) {
            let mastering = UnsafeMutableRawPointer(raw).bindMemory(to: AVMasteringDisplayMetadata.self, capacity: 1)
            mastering.initialize(to: AVMasteringDisplayMetadata())
            func q(_ value: Double) -> AVRational { av_make_q(Int32((value * 50_000).rounded()), 50_000) }
            func luminance(_ value: Double) -> AVRational { av_make_q(Int32((value * 10_000).rounded()), 10_000) }
            mastering.pointee.display_primaries = (
                (q(primaries[0][0]), q(primaries[0][1])),
                (q(primaries[1][0]), q(primaries[1][1])),
                (q(primaries[2][0]), q(primaries[2][1])))
            mastering.pointee.white_point = (q(white[0]), q(white[1]))
            mastering.pointee.has_primaries = 1
            if let maxLuminance = metadata.maxLuminance, let minLuminance = metadata.minLuminance {
                mastering.pointee.max_luminance = luminance(maxLuminance)
                mastering.pointee.min_luminance = luminance(minLuminance)
                mastering.pointee.has_luminance = 1
            }
        }
        if let maxCLL = metadata.maxContentLightLevel,
           let raw = av_stream_new_side_data(stream, AV_PKT_DATA_CONTENT_LIGHT_LEVEL,
                                             MemoryLayout<AVContentLightMetadata>.size) {
            let light = UnsafeMutableRawPointer(raw).bindMemory(to: AVContentLightMetadata.self, capacity: 1)
            light.initialize(to: AVContentLightMetadata())
            light.pointee.MaxCLL = UInt32(maxCLL)
            light.pointee.MaxFALL = UInt32(metadata.maxFrameAverageLightLevel ?? 0)
        }
    }
}
