internal import CFFmpeg
import ReelSupport

/// A libavfilter graph with one source (`buffer`/`abuffer`) and one sink: frames in, frames out.
package final class FilterGraph {
    private let graph: UnsafeMutablePointer<AVFilterGraph>
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>

    /// Builds `source -> description -> sink`.
    /// - Parameters:
    ///   - isVideo: whether to use `buffer`/`buffersink` or `abuffer`/`abuffersink`.
    ///   - sourceArguments: the source filter's options, e.g. `video_size=...:pix_fmt=...`.
    ///   - description: the filter chain between them, e.g. `hqdn3d,scale=1280:720`.
    ///   - threads: filter threads (0 = automatic).
    init(isVideo: Bool, sourceArguments: String, description: String, threads: Int32 = 0) throws(MediaFailure) {
        let graph = try allocated(avfilter_graph_alloc(), "avfilter_graph_alloc")
        self.graph = graph
        graph.pointee.nb_threads = threads
        var sourceContext: UnsafeMutablePointer<AVFilterContext>?
        var sinkContext: UnsafeMutablePointer<AVFilterContext>?
        let sourceFilter = avfilter_get_by_name(isVideo ? "buffer" : "abuffer")
        let sinkFilter = avfilter_get_by_name(isVideo ? "buffersink" : "abuffersink")
        do throws(MediaFailure) {
            try check(avfilter_graph_create_filter(&sourceContext, sourceFilter, "in", sourceArguments, nil, graph), .filter,
                      "avfilter_graph_create_filter (source: \(sourceArguments))")
            try check(avfilter_graph_create_filter(&sinkContext, sinkFilter, "out", nil, nil, graph), .filter,
                      "avfilter_graph_create_filter (sink)")
            guard let sourceContext, let sinkContext else {
                throw .outOfMemory(operation: "avfilter_graph_create_filter")
            }
            source = sourceContext
            sink = sinkContext
            let chain = description.isEmpty ? (isVideo ? "null" : "anull") : description
            try parseFilters(chain, into: graph, sources: [("in", sourceContext)], sink: ("out", sinkContext))
        } catch {
            var freeing: UnsafeMutablePointer<AVFilterGraph>? = graph
            avfilter_graph_free(&freeing)
            throw error
        }
    }

    deinit {
        var freeing: UnsafeMutablePointer<AVFilterGraph>? = graph
        avfilter_graph_free(&freeing)
    }

    /// Makes the audio sink return frames of exactly `samples` samples (the encoder's frame size).
    func setAudioFrameSize(_ samples: Int32) { av_buffersink_set_frame_size(sink, UInt32(samples)) }

    /// Pushes a frame (its buffers are referenced, not copied); `nil` signals the end of input.
    func push(_ frame: Frame?) throws(MediaFailure) {
        let flags = Int32(AV_BUFFERSRC_FLAG_KEEP_REF)
        try check(av_buffersrc_add_frame_flags(source, frame?.pointer, flags), .filter, "av_buffersrc_add_frame_flags")
    }

    /// Pulls the next filtered frame into `frame`.
    func pull(into frame: Frame) throws(MediaFailure) -> CodecStep {
        try codecStep(av_buffersink_get_frame(sink, frame.pointer), .filter, "av_buffersink_get_frame")
    }

    var outputTimeBase: AVRational { av_buffersink_get_time_base(sink) }
    var outputWidth: Int32 { av_buffersink_get_w(sink) }
    var outputHeight: Int32 { av_buffersink_get_h(sink) }
    var outputFormat: Int32 { av_buffersink_get_format(sink) }
    var outputSampleRate: Int32 { av_buffersink_get_sample_rate(sink) }
    var outputFrameRate: AVRational { av_buffersink_get_frame_rate(sink) }

    /// `abuffer` options describing `frame`'s audio (an unordered layout gets the default one).
    static func audioSourceArguments(for frame: Frame, timeBase: AVRational) -> String {
        let value = frame.pointer.pointee
        var layout = AVChannelLayout()
        if value.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
            av_channel_layout_default(&layout, value.ch_layout.nb_channels)
        } else {
            var source = value.ch_layout
            av_channel_layout_copy(&layout, &source)
        }
        defer { av_channel_layout_uninit(&layout) }
        var name = [CChar](repeating: 0, count: 128)
        _ = name.withUnsafeMutableBufferPointer { av_channel_layout_describe(&layout, $0.baseAddress, $0.count) }
        let layoutName = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let format = av_get_sample_fmt_name(AVSampleFormat(rawValue: value.format)).map { String(cString: $0) } ?? "fltp"
        return "time_base=\(timeBase.num)/\(timeBase.den):sample_rate=\(value.sample_rate)"
            + ":sample_fmt=\(format):channel_layout=\(layoutName)"
    }

    /// `buffer` options describing `frame`'s picture, with timestamps in `timeBase`.
    static func videoSourceArguments(for frame: Frame, timeBase: AVRational) -> String {
        let value = frame.pointer.pointee
        let aspect = value.sample_aspect_ratio.num > 0 ? value.sample_aspect_ratio : av_make_q(1, 1)
        return "video_size=\(value.width)x\(value.height):pix_fmt=\(value.format)"
            + ":time_base=\(timeBase.num)/\(timeBase.den):pixel_aspect=\(aspect.num)/\(aspect.den)"
    }

    /// Deinterlacing for single pictures (stills, contact sheets, face searches), whose
    /// neighbours in a graph are not their neighbours in time: libavfilter's `estdif` works
    /// within the picture. Only pictures flagged interlaced are touched.
    package static let stillDeinterlaceFilter = "estdif=mode=frame:parity=auto:deint=interlaced"

    /// The filter that turns a picture `clockwise` degrees (0, 90, 180, 270) to make it upright.
    package static func rotationFilter(clockwise: Int) -> String {
        switch clockwise {
        case 90: return "transpose=clock"
        case 180: return "hflip,vflip"
        case 270: return "transpose=cclock"
        default: return "null"
        }
    }
}

extension Optional where Wrapped == FilterGraph {
    /// The graph, made by `make` the first time (graphs are shaped by the first frame they get).
    mutating func orMake(_ make: () throws(MediaFailure) -> FilterGraph) throws(MediaFailure) -> FilterGraph {
        if let graph = self { return graph }
        let made = try make()
        self = made
        return made
    }
}

/// Parses `description` into `graph` between its open ends, then configures the graph:
/// `sources` are the filters whose outputs the description's inputs named so take (an unnamed
/// first input takes the first), `sink` the filter its output feeds.
func parseFilters(
    _ description: String, into graph: UnsafeMutablePointer<AVFilterGraph>,
    sources: [(name: String, context: UnsafeMutablePointer<AVFilterContext>)],
    sink: (name: String, context: UnsafeMutablePointer<AVFilterContext>)
) throws(MediaFailure) {
    // avfilter_graph_parse_ptr consumes and rewrites both lists; free what it leaves.
    var outputs: UnsafeMutablePointer<AVFilterInOut>?
    var inputs = avfilter_inout_alloc()
    defer {
        avfilter_inout_free(&outputs)
        avfilter_inout_free(&inputs)
    }
    for source in sources.reversed() {
        guard let end = avfilter_inout_alloc() else { throw .outOfMemory(operation: "avfilter_inout_alloc") }
        end.pointee.name = av_strdup(source.name)
        end.pointee.filter_ctx = source.context
        end.pointee.pad_idx = 0
        end.pointee.next = outputs
        outputs = end
    }
    guard let end = inputs else { throw .outOfMemory(operation: "avfilter_inout_alloc") }
    end.pointee.name = av_strdup(sink.name)
    end.pointee.filter_ctx = sink.context
    end.pointee.pad_idx = 0
    end.pointee.next = nil
    try check(avfilter_graph_parse_ptr(graph, description, &inputs, &outputs, nil), .filter,
              "avfilter_graph_parse_ptr (\(description))")
    try check(avfilter_graph_config(graph, nil), .filter, "avfilter_graph_config (\(description))")
}
