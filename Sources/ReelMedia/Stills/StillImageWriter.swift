internal import CFFmpeg
import Foundation
import ReelSupport

/// What a still image writer should produce.
package struct StillImagePlan: Sendable {
    var source: MediaInfo
    var outputPath: String
    /// Source times (seconds, file timeline) of the frames, in the order they are laid out.
    var times: [Double]
    /// Columns of the contact sheet; `nil` writes the single frame.
    var columns: Int?
    /// Width of the image (each tile's width for a sheet), pixels; nil keeps the frame's width.
    var width: Int?
    /// Clockwise rotation to apply so the picture is upright.
    var rotation: Int
    /// `mjpeg` or `png`.
    var encoderName: String
    /// The video stream the pictures come from (nil: the primary one), e.g. a Cinematic
    /// video's disparity track.
    var streamIndex: Int?

    /// Creates the value from every field.
    package init(
        source: MediaInfo,
        outputPath: String,
        times: [Double],
        columns: Int?,
        width: Int?,
        rotation: Int,
        encoderName: String,
        streamIndex: Int? = nil
    ) {
        self.streamIndex = streamIndex
        self.source = source
        self.outputPath = outputPath
        self.times = times
        self.columns = columns
        self.width = width
        self.rotation = rotation
        self.encoderName = encoderName
    }
}

/// Decodes frames at given times and writes them as one JPEG or PNG (a contact sheet when
/// several), rotated upright and scaled by libavfilter.
package enum StillImageWriter {
    /// Writes the image; returns the exact times of the frames used, the image size, and how
    /// many of its pictures the decoder could only conceal (damaged even when decoded from the
    /// file's start).
    package static func write(_ plan: StillImagePlan) throws(MediaFailure) -> (times: [MediaTime], width: Int, height: Int, damaged: Int) {
        guard let written = try writeEach([plan]).images.first else { throw .failed(.decode, "decode", "no frame requested") }
        return written
    }

    /// Writes several images of one source and stream (one per shot, say), decoding the frames
    /// of all of them in one pass in time order, so images from one GOP cost one decode of it;
    /// each image is made as soon as its frames are in. Returns what `write(_:)` returns, for
    /// each plan in order, and where the stream's data ended (file seconds) when the decode
    /// read to the file's end. `shouldCancel` is asked between pictures.
    package static func writeEach(
        _ plans: [StillImagePlan], shouldCancel: () -> Bool = { false }
    ) throws(MediaFailure) -> (images: [(times: [MediaTime], width: Int, height: Int, damaged: Int)], dataEnd: Double?) {
        guard let model = plans.first else { return ([], nil) }
        guard let index = model.streamIndex ?? model.source.primaryVideoStreamIndex else { throw .noVideoStream }
        let input = try InputFile.reopen(model.source, keeping: [index])
        // One thread: a still decodes a few frames from a keyframe, where frame threads only add
        // latency, and FFmpeg flags concealed pictures reliably only without them.
        let decoder = try Decoder(input: input, streamIndex: index, threads: 1)
        let owners = plans.indices.flatMap { plan in plans[plan].times.indices.map { (plan: plan, slot: $0) } }
        var pending = plans.map { [(Frame, MediaTime)?](repeating: nil, count: $0.times.count) }
        var results = [(times: [MediaTime], width: Int, height: Int, damaged: Int)?](repeating: nil, count: plans.count)
        try decoder.visitFramesOnScreen(at: plans.flatMap(\.times), in: input, fileStart: input.startSeconds) { position, frame, time throws(MediaFailure) in
            if shouldCancel() { throw .cancelled }
            let owner = owners[position]
            pending[owner.plan][owner.slot] = (frame, time)
            let frames = pending[owner.plan].compactMap { $0 }
            guard frames.count == plans[owner.plan].times.count else { return }
            pending[owner.plan] = []
            results[owner.plan] = try render(frames, plan: plans[owner.plan], streamIndex: index)
        }
        let images = try results.map { result throws(MediaFailure) in
            guard let result else { throw .failed(.decode, "decode", "no frame requested") }
            return result
        }
        return (images, input.dataRead.reachedEndOfFile ? input.dataRead.seconds : nil)
    }

    /// Lays `frames` out as `plan` asks (upright, scaled, tiled for a sheet) and writes them.
    private static func render(
        _ frames: [(Frame, MediaTime)], plan: StillImagePlan, streamIndex index: Int
    ) throws(MediaFailure) -> (times: [MediaTime], width: Int, height: Int, damaged: Int) {
        guard let first = frames.first?.0 else { throw .failed(.decode, "decode", "no frame requested") }
        let damaged = frames.filter { $0.0.isDamaged }.count
        var chain: [String] = []
        if frames.contains(where: { $0.0.isInterlaced }) { chain.append(FilterGraph.stillDeinterlaceFilter) }
        // An image has no pixel shape: an anamorphic picture (a DVD's 720x576 shown 4:3) is
        // made square-pixelled at its shown aspect, or it would look squeezed.
        let pixelAspect = plan.source.streams.first { $0.index == index }?.video?.pixelAspectRatio
        if let pixelAspect { chain.append("setsar=r=\(pixelAspect):max=10000") }
        if plan.rotation != 0 { chain.append(FilterGraph.rotationFilter(clockwise: plan.rotation)) }
        if let width = plan.width {
            chain.append("scale=\(width):'trunc(ow/dar/2)*2':flags=bicubic,setsar=1")
        } else if pixelAspect != nil {
            chain.append("scale='trunc(ih*dar/2)*2':ih:flags=bicubic,setsar=1")
        }
        if plan.columns != nil {
            // Each tile carries its time (on the API's timeline) in its lower left corner:
            // drawtext prints the picture's pts, which is set to that time below.
            chain.append("drawtext=text='%{pts\\:hms}':font=Sans:fontsize=max(h/10\\,10):fontcolor=white"
                + ":box=1:boxcolor=black@0.6:boxborderw=3:x=6:y=h-th-8")
        }
        if let columns = plan.columns {
            let rows = (frames.count + columns - 1) / columns
            chain.append("tile=\(columns)x\(rows):padding=4:margin=4")
        }
        let jpeg = plan.encoderName == "mjpeg"
        chain.append("format=\(jpeg ? "yuvj420p" : "rgb24")")
        let microseconds = av_make_q(1, 1_000_000)
        let graph = try FilterGraph(
            isVideo: true, sourceArguments: FilterGraph.videoSourceArguments(for: first, timeBase: microseconds),
            description: chain.joined(separator: ","))
        for (frame, time) in frames {
            frame.pts = Int64(((time.seconds - plan.source.startTime) * 1_000_000).rounded())
            try graph.push(frame)
        }
        try graph.push(nil)
        let image = try Frame()
        guard try graph.pull(into: image) == .produced else {
            throw .failed(.filter, "av_buffersink_get_frame", "the filter made no image")
        }
        try encode(image, encoderName: plan.encoderName, to: plan.outputPath)
        return (frames.map(\.1), Int(image.width), Int(image.height), damaged)
    }

    /// Writes a packed RGB picture as JPEG (`mjpeg`) or PNG (`png`).
    package static func write(_ picture: RGBPicture, encoderName: String, to path: String) throws(MediaFailure) {
        try write(encoded(picture, encoderName: encoderName), to: path)
    }

    /// A packed RGB picture as the bytes of a JPEG (`mjpeg`) or PNG (`png`) file.
    package static func encoded(_ picture: RGBPicture, encoderName: String) throws(MediaFailure) -> Data {
        guard picture.width > 0, picture.height > 0, picture.pixels.count == picture.width * picture.height * 3 else {
            throw .failed(.encode, "encode", "a \(picture.width)x\(picture.height) picture needs \(max(picture.width * picture.height * 3, 0)) bytes of RGB, not \(picture.pixels.count)")
        }
        let frame = try Frame()
        try frame.allocatePicture(width: Int32(picture.width), height: Int32(picture.height),
                                  format: AV_PIX_FMT_RGB24.rawValue, stage: .filter)
        guard let plane = frame.plane(0) else { throw .outOfMemory(operation: "av_frame_get_buffer") }
        picture.pixels.withUnsafeBufferPointer { pixels in
            guard let base = pixels.baseAddress else { return }
            for row in 0..<picture.height {
                (plane.data + row * plane.lineSize).update(from: base + row * picture.width * 3, count: picture.width * 3)
            }
        }
        frame.pts = 0
        let graph = try FilterGraph(
            isVideo: true, sourceArguments: FilterGraph.videoSourceArguments(for: frame, timeBase: av_make_q(1, 25)),
            description: "format=\(encoderName == "mjpeg" ? "yuvj420p" : "rgb24")", threads: 1)
        try graph.push(frame)
        try graph.push(nil)
        let image = try Frame()
        guard try graph.pull(into: image) == .produced else {
            throw .failed(.filter, "av_buffersink_get_frame", "the filter made no image")
        }
        return try encoded(image, encoderName: encoderName)
    }

    /// Encodes one picture as JPEG (best quality scale) or PNG and writes the file.
    private static func encode(_ image: Frame, encoderName: String, to path: String) throws(MediaFailure) {
        try write(encoded(image, encoderName: encoderName), to: path)
    }

    /// One picture as JPEG (best quality scale) or PNG bytes.
    private static func encoded(_ image: Frame, encoderName: String) throws(MediaFailure) -> Data {
        let encoder = try Encoder(image: encoderName, for: image)
        let packet = try Packet()
        var bytes = Data()
        func collect(_ packet: Packet) { bytes.append(packet.bytes) }
        try encoder.encode(image, into: packet, collect)
        try encoder.encode(nil, into: packet, collect)
        guard !bytes.isEmpty else { throw .failed(.encode, "avcodec_receive_packet", "the image encoder produced nothing") }
        return bytes
    }

    private static func write(_ bytes: Data, to path: String) throws(MediaFailure) {
        do {
            try bytes.write(to: URL(fileURLWithPath: path))
        } catch {
            throw .failed(.mux, "write", "cannot write \(path): \(error.localizedDescription)")
        }
    }
}
