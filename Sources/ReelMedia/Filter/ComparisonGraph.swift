internal import CFFmpeg
import ReelSupport

/// A libavfilter graph with two video sources, `[d]` (distorted: the encode) and `[r]`
/// (reference: the source), and one sink: for filters that compare pictures (`ssim`, `psnr`).
final class ComparisonGraph {
    private let graph: UnsafeMutablePointer<AVFilterGraph>
    private let distorted: UnsafeMutablePointer<AVFilterContext>
    private let reference: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>

    /// Builds the graph: `distorted` and `reference` are the `buffer` options of the two
    /// inputs, `description` the filters from `[d]` and `[r]` to the one output.
    init(distorted distortedArguments: String, reference referenceArguments: String, description: String) throws(MediaFailure) {
        let graph = try allocated(avfilter_graph_alloc(), "avfilter_graph_alloc")
        self.graph = graph
        var distortedContext: UnsafeMutablePointer<AVFilterContext>?
        var referenceContext: UnsafeMutablePointer<AVFilterContext>?
        var sinkContext: UnsafeMutablePointer<AVFilterContext>?
        let buffer = avfilter_get_by_name("buffer")
        do throws(MediaFailure) {
            try check(avfilter_graph_create_filter(&distortedContext, buffer, "d", distortedArguments, nil, graph), .filter,
                      "avfilter_graph_create_filter (distorted: \(distortedArguments))")
            try check(avfilter_graph_create_filter(&referenceContext, buffer, "r", referenceArguments, nil, graph), .filter,
                      "avfilter_graph_create_filter (reference: \(referenceArguments))")
            try check(avfilter_graph_create_filter(&sinkContext, avfilter_get_by_name("buffersink"), "out", nil, nil, graph),
                      .filter, "avfilter_graph_create_filter (sink)")
            guard let distortedContext, let referenceContext, let sinkContext else {
                throw .outOfMemory(operation: "avfilter_graph_create_filter")
            }
            distorted = distortedContext
            reference = referenceContext
            sink = sinkContext
            try parseFilters(description + "[out]", into: graph,
                             sources: [("d", distortedContext), ("r", referenceContext)], sink: ("out", sinkContext))
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

    /// Pushes a picture of the encode; `nil` ends that input.
    func pushDistorted(_ frame: Frame?) throws(MediaFailure) { try push(frame, into: distorted) }

    /// Pushes a picture of the source; `nil` ends that input.
    func pushReference(_ frame: Frame?) throws(MediaFailure) { try push(frame, into: reference) }

    /// Pulls the next compared picture (the comparison is in its metadata).
    func pull(into frame: Frame) throws(MediaFailure) -> CodecStep {
        try codecStep(av_buffersink_get_frame(sink, frame.pointer), .filter, "av_buffersink_get_frame")
    }

    private func push(_ frame: Frame?, into source: UnsafeMutablePointer<AVFilterContext>) throws(MediaFailure) {
        try check(av_buffersrc_add_frame_flags(source, frame?.pointer, Int32(AV_BUFFERSRC_FLAG_KEEP_REF)), .filter,
                  "av_buffersrc_add_frame_flags")
    }
}
