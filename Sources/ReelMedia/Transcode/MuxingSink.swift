internal import CFFmpeg
import ReelFrameReduction
import ReelSupport

/// Owns the output file and writes its header once the video encoder exists (the audio encoder
/// is opened up front); stages hand it packets with their encoder's time base.
final class MuxingSink {
    let output: OutputFile
    private let plan: TranscodePlan
    private(set) var audioEncoder: Encoder?
    private(set) var videoStreamIndex: Int?
    private(set) var audioStreamIndex: Int?
    private(set) var isReady = false
    /// The source whose tags the output takes (`nil`: none).
    private let metadataSource: InputFile?

    init(plan: TranscodePlan, metadataSource: InputFile?) throws(MediaFailure) {
        self.plan = plan
        self.metadataSource = metadataSource
        output = try OutputFile(path: plan.outputPath, formatName: plan.formatName)
        if let audio = plan.audio {
            audioEncoder = try Encoder(
                audioEncoder: audio.encoderName, sampleRate: Int32(audio.sampleRate),
                channels: Int32(audio.channels), bitRate: audio.bitRate, globalHeader: output.needsGlobalHeader)
        }
    }

    var needsGlobalHeader: Bool { output.needsGlobalHeader }

    /// Adds the streams and writes the header; called when the video encoder has opened.
    func start(videoEncoder: Encoder, hdr: HDRMetadata?) throws(MediaFailure) {
        let video = try output.addStream(for: videoEncoder)
        videoStreamIndex = video
        output.setRotation(plan.outputRotation, streamIndex: video)
        if let hdr { output.setHDRMetadata(hdr, streamIndex: video) }
        if let audioEncoder { audioStreamIndex = try output.addStream(for: audioEncoder) }
        if let source = metadataSource {
            output.copyMetadata(from: source)
            if let stream = source.stream(plan.videoStreamIndex) { output.copyStreamMetadata(from: stream, to: video) }
            if let audio = audioStreamIndex, let index = plan.audioStreamIndex, let stream = source.stream(index) {
                output.copyStreamMetadata(from: stream, to: audio)
            }
        }
        try output.writeHeader(fastStart: plan.fastStart)
        isReady = true
    }

    func writeVideo(_ packet: Packet, timeBase: AVRational) throws(MediaFailure) {
        guard let index = videoStreamIndex else { return }
        try output.write(packet, streamIndex: index, from: timeBase)
    }

    func writeAudio(_ packet: Packet, timeBase: AVRational) throws(MediaFailure) {
        guard let index = audioStreamIndex else { return }
        try output.write(packet, streamIndex: index, from: timeBase)
    }
}
