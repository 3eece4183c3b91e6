import CFFmpeg
import Foundation

/// Facts about a source that analysis needs.
struct AnalysisSourceInfo: Sendable {
    var duration: Double
    var frameRate: Double
    var hasAudio: Bool
    /// The video stream's start, in seconds; analysis times are relative to the file's timeline.
    var videoStart: Double
}

/// One decode pass for analysis: cheap video decoding (no loop filter, non-reference frames
/// skipped) sampled at a fixed rate and shrunk with swscale, plus the audio as mono floats.
enum AnalysisReader {
    /// Sample rate of the mono audio handed to `onAudio`.
    static let audioSampleRate: Int32 = 16_000

    /// Reads the whole file once. Pictures arrive in time order, at most `sampleRate` per second.
    static func read(
        url: URL, sampleRate: Double, width: Int, height: Int, skipNonReference: Bool = true,
        shouldCancel: () -> Bool,
        progress: (Double) -> Void,
        onFrameChange: (MediaTime, Double) -> Void,
        onPicture: (SmallPicture) -> Void,
        onAudio: ([Float]) -> Void
    ) throws -> AnalysisSourceInfo {
        let input = try InputFile(url: url)
        guard let videoIndex = input.bestStream(AVMEDIA_TYPE_VIDEO) else {
            throw FFmpegFailure("av_find_best_stream", message: "no video stream")
        }
        let audioIndex = input.bestStream(AVMEDIA_TYPE_AUDIO, relatedTo: videoIndex)
        let video = try Decoder(input: input, streamIndex: videoIndex, cheap: true)
        if skipNonReference { video.setSkipFrames(AVDISCARD_NONREF) }
        let audio = try audioIndex.map { index throws(FFmpegFailure) in try MonoAudioDecoder(input: input, streamIndex: index) }
        let downscaler = try Downscaler(width: width, height: height)
        let info = describe(input, videoIndex: videoIndex, hasAudio: audioIndex != nil)

        var nextInstant = -Double.infinity
        var previousGrid: LumaGrid?
        let interval = 1 / max(sampleRate, 0.1)
        let frame = try Frame()
        let packet = try Packet()
        func drainVideo() throws {
            while try video.receive(into: frame) == .produced {
                defer { frame.unreference() }
                guard let pts = frame.presentationTimestamp else { continue }
                let time = MediaTime(value: pts * Int64(video.timeBase.num), timescale: video.timeBase.den)
                // Every decoded frame gets a cheap change score (point samples, no scaling), so
                // cuts can be placed on the exact frame; full measurements only at the sample rate.
                if let grid = LumaGrid(frame: frame.pointer) {
                    onFrameChange(time, previousGrid.map { grid.difference(to: $0) } ?? 0)
                    previousGrid = grid
                }
                guard time.seconds >= nextInstant else { continue }
                nextInstant = max(nextInstant + interval, time.seconds + interval * 0.5)
                onPicture(try downscaler.shrink(frame, time: time))
                if info.duration > 0 { progress(min(time.seconds / info.duration, 1)) }
            }
        }
        while try input.read(into: packet) {
            defer { packet.unreference() }
            if shouldCancel() { throw TranscodeCancelled() }
            if packet.streamIndex == videoIndex {
                do {
                    while try !video.send(packet) { try drainVideo() }
                } catch let failure as FFmpegFailure where failure.code == reel_averror_invaliddata() {
                    continue
                }
                try drainVideo()
            } else if packet.streamIndex == audioIndex, let audio {
                try audio.decode(packet, into: onAudio)
            }
        }
        _ = try video.send(nil)
        try drainVideo()
        try audio?.decode(nil, into: onAudio)
        return info
    }

    /// The change score of every frame between `start` and `end` seconds at full rate (no
    /// frame skipped), for placing a cut exactly when the main pass skipped frames around it.
    static func frameChanges(url: URL, from start: Double, to end: Double) throws -> [(time: MediaTime, change: Double)] {
        let input = try InputFile(url: url)
        guard let videoIndex = input.bestStream(AVMEDIA_TYPE_VIDEO) else { return [] }
        let video = try Decoder(input: input, streamIndex: videoIndex, cheap: true)
        try input.seek(toSeconds: max(start, 0))
        var changes: [(time: MediaTime, change: Double)] = []
        var previousGrid: LumaGrid?
        try video.forEachFrame(in: input) { frame in
            guard let time = video.time(of: frame), let grid = LumaGrid(frame: frame.pointer) else { return true }
            if time.seconds > end { return false }
            if time.seconds >= start { changes.append((time, previousGrid.map { grid.difference(to: $0) } ?? 0)) }
            previousGrid = grid
            return true
        }
        return changes
    }

    private static func describe(_ input: InputFile, videoIndex: Int, hasAudio: Bool) -> AnalysisSourceInfo {
        let stream = input.stream(videoIndex)
        let rate = stream.map { av_q2d($0.pointee.avg_frame_rate) } ?? 0
        let start = stream.map { $0.pointee.start_time == reel_nopts_value() ? 0 : Double($0.pointee.start_time) * av_q2d($0.pointee.time_base) } ?? 0
        return AnalysisSourceInfo(
            duration: input.durationSeconds(ofStream: videoIndex), frameRate: rate.isFinite && rate > 0 ? rate : 30,
            hasAudio: hasAudio, videoStart: start)
    }
}

/// Decodes an audio stream to mono float samples at `AnalysisReader.audioSampleRate`.
final class MonoAudioDecoder {
    private let decoder: Decoder
    private var graph: FilterGraph?
    private let decoded: Frame
    private let filtered: Frame

    init(input: InputFile, streamIndex: Int) throws(FFmpegFailure) {
        decoder = try Decoder(input: input, streamIndex: streamIndex)
        decoded = try Frame()
        filtered = try Frame()
    }

    /// Decodes a packet (`nil` flushes) and hands the resampled mono samples to `sink`.
    func decode(_ packet: Packet?, into sink: ([Float]) -> Void) throws {
        do {
            while try !decoder.send(packet) { try drain(sink) }
        } catch let failure as FFmpegFailure where failure.code == reel_averror_invaliddata() {
            return
        }
        try drain(sink)
        if packet == nil, let graph {
            try graph.push(nil)
            try pull(graph, sink)
        }
    }

    private func drain(_ sink: ([Float]) -> Void) throws {
        while try decoder.receive(into: decoded) == .produced {
            defer { decoded.unreference() }
            let graph = try self.graph ?? makeGraph()
            self.graph = graph
            try graph.push(decoded)
            try pull(graph, sink)
        }
    }

    private func pull(_ graph: FilterGraph, _ sink: ([Float]) -> Void) throws {
        while try graph.pull(into: filtered) == .produced {
            defer { filtered.unreference() }
            let count = Int(filtered.pointer.pointee.nb_samples)
            guard count > 0, let data = filtered.pointer.pointee.data.0 else { continue }
            let samples = UnsafeRawPointer(data).assumingMemoryBound(to: Float.self)
            sink(Array(UnsafeBufferPointer(start: samples, count: count)))
        }
    }

    private func makeGraph() throws -> FilterGraph {
        let source = FilterGraph.audioSourceArguments(for: decoded, timeBase: decoder.timeBase)
        return try FilterGraph(
            isVideo: false, sourceArguments: source,
            description: "aresample=\(AnalysisReader.audioSampleRate),aformat=sample_fmts=flt:channel_layouts=mono",
            threads: 1)
    }
}
