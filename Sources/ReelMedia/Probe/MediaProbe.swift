internal import CFFmpeg
import Foundation
import ReelSupport

/// Reads a file's container and stream facts into `MediaInfo`.
enum MediaProbe {
    /// Describes an open input. With `measuringBitRates`, streams without a header bit rate are
    /// measured from their packets (one pass over the file, no decoding).
    static func describe(_ input: InputFile, measuringBitRates: Bool = true) throws(MediaFailure) -> MediaInfo {
        // A symbolic link's own size is the length of its target's name: follow it.
        let fileSize = (try? FileManager.default.attributesOfItem(atPath: input.url.resolvingSymlinksInPath().path)[.size] as? Int64) ?? 0
        var duration = input.durationSeconds
        let primaryVideo = input.bestStream(AVMEDIA_TYPE_VIDEO)
        let primaryAudio = input.bestStream(AVMEDIA_TYPE_AUDIO, relatedTo: primaryVideo)
        var streams = (0..<input.streamCount).compactMap { index in
            describeStream(index, of: input, primaryVideo: primaryVideo, primaryAudio: primaryAudio)
        }
        // Some MP4s (an edit list that starts late) state a duration counted from 0, not from
        // their start: a file starting at 10^6 s with 6 s of media would last 1,000,006 s.
        // The API's timeline counts from the first frame, so the length is what the streams hold.
        let start = input.startSeconds
        let streamsEnd = streams.compactMap { info -> Double? in
            guard let length = info.duration, let stream = input.stream(info.index) else { return nil }
            let first = stream.pointee.start_time
            return (first == reel_nopts_value() ? 0 : Double(first) * av_q2d(stream.pointee.time_base)) + length
        }.max()
        if start > 1, duration > 0, let streamsEnd, abs(duration - streamsEnd) < 1, streamsEnd - start > 0 {
            duration = streamsEnd - start
        }
                // A raw elementary stream (.h264, .hevc) states no duration and carries no timestamps:
        // its frames are counted and timed at the frame rate, as ffmpeg does.
        if duration <= 0, let video = primaryVideo, let position = streams.firstIndex(where: { $0.index == video }),
           let rate = streams[position].video?.frameRate, rate > 0, input.stream(video)?.pointee.duration ?? 0 <= 0 {
            let frames = countPackets(of: video, in: input)
            if frames > 0 {
                duration = Double(frames) / rate
                streams[position].duration = duration
                streams[position].frameCount = Int64(frames)
            }
        }
        let containerName = input.context.pointee.iformat.map { String(cString: $0.pointee.name) } ?? "unknown"
        let needsMeasuring = streams.contains { ($0.bitRate ?? 0) <= 0 && $0.kind != .attachment && $0.role != .coverArt }
        // A still image has nothing to measure, and its demuxer cannot seek back.
        // Formats whose timestamps may jump (MPEG-TS) state a duration that spans the jumps: the
        // packet pass reads them on one continuous clock (see `InputFile.read`) and gives the
        // real length.
        let discontinuous = input.allowsDiscontinuities
        var layout = input.layout
        if (needsMeasuring && measuringBitRates || discontinuous) && !MediaInfo.isStillImageContainer(containerName) {
            let measured = try measureBitRates(input)
            for position in streams.indices where (streams[position].bitRate ?? 0) <= 0 {
                if let rate = measured.rates[streams[position].index] { streams[position].bitRate = rate }
            }
            if discontinuous, let span = measured.span, span > 0, abs(span - duration) > 1 { duration = span }
            if discontinuous && measured.jumps {
                // The header's stream lengths are one segment's; the joined clock's is the file's.
                layout.timestampsJump = true
                layout.containerDuration = duration
                for position in streams.indices where streams[position].duration != nil { streams[position].duration = duration }
            }
        }
        let overall = duration > 0 ? Int64(Double(fileSize) * 8 / duration) : Int64(input.context.pointee.bit_rate)
        var info = MediaInfo(
            url: input.url,
            containerName: containerName,
            duration: duration,
            startTime: input.startSeconds,
            fileSize: fileSize,
            bitRate: overall,
            streams: streams,
            primaryVideoStreamIndex: primaryVideo,
            primaryAudioStreamIndex: primaryAudio,
            layout: layout)
        info.isRawStream = !input.seeksByTime
        return info
    }

    private static func describeStream(
        _ index: Int, of input: InputFile, primaryVideo: Int?, primaryAudio: Int?
    ) -> StreamInfo? {
        guard let stream = input.stream(index), let parameters = stream.pointee.codecpar else { return nil }
        let codecParameters = parameters.pointee
        let isAttachedPicture = stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0
        let kind: StreamKind
        switch codecParameters.codec_type {
        case AVMEDIA_TYPE_VIDEO: kind = .video
        case AVMEDIA_TYPE_AUDIO: kind = .audio
        case AVMEDIA_TYPE_SUBTITLE: kind = .subtitle
        case AVMEDIA_TYPE_DATA: kind = .data
        case AVMEDIA_TYPE_ATTACHMENT: kind = .attachment
        default: kind = .unknown
        }
        let role: StreamRole
        switch kind {
        case .video where isAttachedPicture: role = .coverArt
        case .video: role = index == primaryVideo ? .primaryVideo : .auxiliaryVideo
        case .audio: role = index == primaryAudio ? .primaryAudio : .auxiliaryAudio
        case .data: role = .data
        case .subtitle: role = .subtitle
        case .attachment: role = .coverArt
        case .unknown: role = .other
        }
        let timeBase = av_q2d(stream.pointee.time_base)
        let duration = stream.pointee.duration > 0 ? Double(stream.pointee.duration) * timeBase : nil
        var info = StreamInfo(
            index: index,
            kind: kind,
            role: role,
            codecName: codecName(codecParameters),
            profile: av_get_profile_name(avcodec_find_decoder(codecParameters.codec_id), codecParameters.profile)
                .map { String(cString: $0) },
            bitRate: codecParameters.bit_rate > 0 ? codecParameters.bit_rate : nil,
            duration: duration,
            frameCount: storedFrameCount(stream, in: input),
            handlerName: metadataValue("handler_name", in: stream.pointee.metadata),
            video: nil,
            audio: nil,
            language: metadataValue("language", in: stream.pointee.metadata).flatMap { $0 == "und" ? nil : $0 })
        if kind == .subtitle {
            let properties = avcodec_descriptor_get(codecParameters.codec_id)?.pointee.props ?? 0
            info.isTextSubtitle = properties & AV_CODEC_PROP_TEXT_SUB != 0
        }
        if kind == .video {
            info.video = describeVideo(stream, index: index, input: input)
        } else if kind == .audio {
            info.audio = AudioStreamInfo(
                sampleRate: Int(codecParameters.sample_rate),
                channels: Int(codecParameters.ch_layout.nb_channels),
                channelLayout: channelLayoutName(parameters),
                sampleFormat: av_get_sample_fmt_name(AVSampleFormat(rawValue: codecParameters.format))
                    .map { String(cString: $0) } ?? "unknown")
        }
        return info
    }

    /// The frames the container says the stream holds. An AVI's header counts the empty
    /// chunks some writers put where no picture changed (OpenCV's tree.avi: 444 claimed, 68
    /// real); its index lists only the real ones, so the smaller count is the true one.
    private static func storedFrameCount(_ stream: UnsafeMutablePointer<AVStream>, in input: InputFile) -> Int64? {
        let claimed = stream.pointee.nb_frames
        let format = input.context.pointee.iformat.map { String(cString: $0.pointee.name) }
        if format == "avi" {
            let indexed = Int64(avformat_index_get_entries_count(stream))
            switch stream.pointee.codecpar.pointee.codec_type {
            case AVMEDIA_TYPE_VIDEO where indexed > 0 && (claimed <= 0 || indexed < claimed): return indexed
            case AVMEDIA_TYPE_AUDIO: return aviSoundFrames(stream)
            default: break
            }
        }
        return claimed > 0 ? claimed : nil
    }

    /// An AVI's sound frames. Its header gives the sound's length in its own units, not frames
    /// (Megamind.avi's AC-3: "270270", samples at 24 kHz), and its chunks need not hold whole
    /// frames (260 chunks there): at a constant bit rate with a fixed frame size (AC-3, MP3) the
    /// indexed bytes say how many frames there are (352); else no count.
    private static func aviSoundFrames(_ stream: UnsafeMutablePointer<AVStream>) -> Int64? {
        let parameters = stream.pointee.codecpar.pointee
        let frameSize = parameters.frame_size > 0 ? parameters.frame_size : av_get_audio_frame_duration2(stream.pointee.codecpar, 0)
        guard frameSize > 0, parameters.bit_rate > 0, parameters.sample_rate > 0 else { return nil }
        var bytes: Int64 = 0
        for entry in 0..<avformat_index_get_entries_count(stream) {
            bytes += Int64(avformat_index_get_entry(stream, entry)?.pointee.size ?? 0)
        }
        guard bytes > 0 else { return nil }
        let seconds = Double(bytes) * 8 / Double(parameters.bit_rate)
        return Int64((seconds * Double(parameters.sample_rate) / Double(frameSize)).rounded())
    }

    private static func describeVideo(
        _ stream: UnsafeMutablePointer<AVStream>, index: Int, input: InputFile
    ) -> VideoStreamInfo {
        let parameters = stream.pointee.codecpar.pointee
        let average = rate(stream.pointee.avg_frame_rate)
        let base = rate(stream.pointee.r_frame_rate)
        let pixelFormat = AVPixelFormat(rawValue: parameters.format)
        let descriptor = av_pix_fmt_desc_get(pixelFormat)
        return VideoStreamInfo(
            width: Int(parameters.width),
            height: Int(parameters.height),
            rotation: input.rotation(ofStream: index),
            frameRate: average > 0 ? average : base,
            baseFrameRate: base,
            isVariableFrameRate: average > 0 && base > 0 && abs(base - average) / base > 0.01,
            pixelFormat: av_get_pix_fmt_name(pixelFormat).map { String(cString: $0) } ?? "unknown",
            bitDepth: descriptor.map { Int($0.pointee.comp.0.depth) } ?? 8,
            color: ColorInfo(
                primaries: name(av_color_primaries_name(parameters.color_primaries), unspecified: parameters.color_primaries == AVCOL_PRI_UNSPECIFIED),
                transfer: name(av_color_transfer_name(parameters.color_trc), unspecified: parameters.color_trc == AVCOL_TRC_UNSPECIFIED),
                matrix: name(av_color_space_name(parameters.color_space), unspecified: parameters.color_space == AVCOL_SPC_UNSPECIFIED),
                range: name(av_color_range_name(parameters.color_range), unspecified: parameters.color_range == AVCOL_RANGE_UNSPECIFIED)),
            hdr: input.hdrMetadata(ofStream: index),
            pixelAspectRatio: pixelAspect(av_guess_sample_aspect_ratio(input.context, stream, nil)),
            isInterlaced: [AV_FIELD_TT, AV_FIELD_BB, AV_FIELD_TB, AV_FIELD_BT].contains(parameters.field_order))
    }

    /// A sample aspect ratio as a number, `nil` when square or unknown (0/1).
    private static func pixelAspect(_ ratio: AVRational) -> Double? {
        guard ratio.num > 0, ratio.den > 0, ratio.num != ratio.den else { return nil }
        return Double(ratio.num) / Double(ratio.den)
    }

    /// The packets of stream `index` in one pass over the file (no decoding), then back to the start.
    private static func countPackets(of index: Int, in input: InputFile) -> Int {
        guard let packet = try? Packet() else { return 0 }
        var count = 0
        while (try? input.read(into: packet)) == true {
            if packet.streamIndex == index { count += 1 }
            packet.unreference()
        }
        try? input.rewind()
        return count
    }

    /// Sums packet sizes per stream over one pass of the file (no decoding).
    /// Also returns the span from the first packet's time to the last one's end, in seconds.
    private static func measureBitRates(_ input: InputFile) throws(MediaFailure) -> (rates: [Int: Int64], span: Double?, jumps: Bool) {
        let packet = try Packet()
        var bytes: [Int: Int64] = [:]
        var first: [Int: Int64] = [:]
        var last: [Int: Int64] = [:]
        while try input.read(into: packet) {
            let index = packet.streamIndex
            bytes[index, default: 0] += Int64(packet.size)
            if let pts = packet.pts {
                let end = pts + max(packet.duration, 0)
                first[index] = min(first[index] ?? pts, pts)
                last[index] = max(last[index] ?? end, end)
            }
            packet.unreference()
        }
        let jumps = input.hasJoinedTimestampJumps
        // Back to the start for a caller that reads on. Raw elementary streams (.h264) cannot
        // seek by time; a byte rewind works there, and a probe needs no more than that.
        if (try? input.seek(toSeconds: input.startSeconds)) == nil { try? input.rewind() }
        var rates: [Int: Int64] = [:]
        for (index, total) in bytes {
            guard let stream = input.stream(index) else { continue }
            var seconds = input.durationSeconds(ofStream: index)
            if let start = first[index], let end = last[index], end > start {
                seconds = Double(end - start) * av_q2d(stream.pointee.time_base)
            }
            if seconds > 0 { rates[index] = Int64(Double(total) * 8 / seconds) }
        }
        let starts = first.compactMap { index, pts in input.stream(index).map { Double(pts) * av_q2d($0.pointee.time_base) } }
        let ends = last.compactMap { index, pts in input.stream(index).map { Double(pts) * av_q2d($0.pointee.time_base) } }
        let span = starts.min().flatMap { start in ends.max().map { $0 - start } }
        return (rates, span, jumps)
    }

    private static func codecName(_ parameters: AVCodecParameters) -> String {
        if parameters.codec_id != AV_CODEC_ID_NONE, let name = avcodec_get_name(parameters.codec_id) {
            let text = String(cString: name)
            if text != "none" { return text }
        }
        let tag = parameters.codec_tag
        guard tag != 0 else { return "unknown" }
        let bytes = (0..<4).map { UInt8((tag >> (8 * $0)) & 0xFF) }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func channelLayoutName(_ parameters: UnsafeMutablePointer<AVCodecParameters>) -> String? {
        var buffer = [CChar](repeating: 0, count: 64)
        let written = buffer.withUnsafeMutableBufferPointer { pointer in
            av_channel_layout_describe(&parameters.pointee.ch_layout, pointer.baseAddress, pointer.count)
        }
        guard written > 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func metadataValue(_ key: String, in dictionary: OpaquePointer?) -> String? {
        guard let entry = av_dict_get(dictionary, key, nil, 0), let value = entry.pointee.value else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    private static func rate(_ value: AVRational) -> Double {
        value.num > 0 && value.den > 0 ? av_q2d(value) : 0
    }

    private static func name(_ pointer: UnsafePointer<CChar>?, unspecified: Bool) -> String? {
        guard !unspecified, let pointer else { return nil }
        return String(cString: pointer)
    }
}
