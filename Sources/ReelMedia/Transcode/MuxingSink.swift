internal import CFFmpeg
import ReelSupport

/// Owns the output file and writes its header once the video encoder exists (the audio
/// encoders are opened up front); stages hand it packets with their encoder's time base.
final class MuxingSink {
    let output: OutputFile
    private let plan: TranscodePlan
    /// One encoder per kept audio track, in `plan.audioTracks` order.
    let audioEncoders: [Encoder]
    /// The text subtitle tracks, written as their ranges are scheduled.
    let subtitles: [SubtitleTrack]
    private(set) var videoStreamIndex: Int?
    private var audioStreamIndices: [Int] = []
    private(set) var isReady = false
    /// The source whose tags the output takes (`nil`: none).
    private let metadataSource: InputFile?

    init(plan: TranscodePlan, metadataSource: InputFile?, subtitles: [SubtitleTrack]) throws(MediaFailure) {
        self.plan = plan
        self.metadataSource = metadataSource
        self.subtitles = subtitles
        output = try OutputFile(path: plan.outputPath, formatName: plan.formatName)
        let globalHeader = output.needsGlobalHeader
        audioEncoders = try plan.audioTracks.map { track throws(MediaFailure) in
            let audio = track.settings
            return try Encoder(
                audioEncoder: audio.encoderName, sampleRate: Int32(audio.sampleRate),
                channels: Int32(audio.channels), bitRate: audio.bitRate, globalHeader: globalHeader)
        }
    }

    var needsGlobalHeader: Bool { output.needsGlobalHeader }
    /// The plan's audio tracks, in the order of `audioEncoders`.
    var plannedAudio: [AudioTrackPlan] { plan.audioTracks }

    /// Adds the streams and writes the header; called when the video encoder has opened.
    func start(videoEncoder: Encoder, hdr: HDRMetadata?) throws(MediaFailure) {
        let video = try output.addStream(for: videoEncoder)
        videoStreamIndex = video
        output.setRotation(plan.outputRotation, streamIndex: video)
        if let hdr { output.setHDRMetadata(hdr, streamIndex: video) }
        for encoder in audioEncoders { audioStreamIndices.append(try output.addStream(for: encoder)) }
        for track in subtitles { try track.addStream(to: output, keepingTags: metadataSource != nil) }
        if let source = metadataSource {
            output.copyMetadata(from: source)
            if let stream = source.stream(plan.videoStreamIndex) { output.copyStreamMetadata(from: stream, to: video) }
            for (track, index) in zip(plan.audioTracks, audioStreamIndices) {
                if let stream = source.stream(track.streamIndex) { output.copyStreamMetadata(from: stream, to: index) }
            }
        }
        try output.writeHeader(fastStart: plan.fastStart)
        isReady = true
        try writeSubtitles()
    }

    /// Adds the audio and subtitle streams alone and writes the header: an output with no
    /// picture (the audio job of a chunked encode).
    func startWithoutVideo() throws(MediaFailure) {
        for encoder in audioEncoders { audioStreamIndices.append(try output.addStream(for: encoder)) }
        for track in subtitles { try track.addStream(to: output, keepingTags: metadataSource != nil) }
        if let source = metadataSource {
            for (track, index) in zip(plan.audioTracks, audioStreamIndices) {
                if let stream = source.stream(track.streamIndex) { output.copyStreamMetadata(from: stream, to: index) }
            }
        }
        try output.writeHeader(fastStart: plan.fastStart)
        isReady = true
        try writeSubtitles()
    }

    func writeVideo(_ packet: Packet, timeBase: AVRational) throws(MediaFailure) {
        guard let index = videoStreamIndex else { return }
        try output.write(packet, streamIndex: index, from: timeBase)
    }

    /// Writes a packet of audio track `track` (a position in `plan.audioTracks`).
    func writeAudio(_ packet: Packet, track: Int, timeBase: AVRational) throws(MediaFailure) {
        guard track < audioStreamIndices.count else { return }
        try output.write(packet, streamIndex: audioStreamIndices[track], from: timeBase)
    }

    /// Writes the subtitle events scheduled so far, once the header is out.
    func writeSubtitles() throws(MediaFailure) {
        guard isReady else { return }
        for track in subtitles { try track.writeScheduled(to: output) }
    }
}
