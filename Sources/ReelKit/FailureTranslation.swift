import Foundation

/// Runs Media-layer work and maps its failures to `ReelError`, naming the file read or written.
func translatingFailures<Value>(source: URL, output: URL, _ work: () throws -> Value) throws(ReelError) -> Value {
    do {
        return try work()
    } catch is TranscodeCancelled {
        throw .cancelled
    } catch let error as ReelError {
        throw error
    } catch let failure as FFmpegFailure {
        if failure.operation == "av_find_best_stream" { throw .missingVideoTrack(source) }
        switch failure.stage {
        case .demux:
            throw .unreadableSource(source, reason: "\(failure.operation): \(failure.message)")
        case .decode:
            throw .decodingFailed(source, operation: failure.operation, reason: failure.message)
        case .encode:
            throw .encodingFailed(output, operation: failure.operation, reason: failure.message)
        case .mux:
            throw .muxingFailed(output, operation: failure.operation, reason: failure.message)
        }
    } catch {
        throw .decodingFailed(source, operation: "transcode", reason: "\(error)")
    }
}
