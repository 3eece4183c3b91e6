internal import CFFmpeg
import ReelSupport

/// Where an `AudioStage` hands its finished sound: an encoder and the muxer, or a meter.
protocol AudioStageOutput: AnyObject {
    /// The sample format the output takes.
    var sampleFormat: AVSampleFormat { get }
    /// The samples every frame must hold (0: any).
    var frameSize: Int32 { get }
    /// Whether the output takes frames yet (the muxer waits for the video encoder).
    var isReady: Bool { get }
    /// Takes one frame, its timestamp in samples; `nil` flushes at the end.
    func take(_ frame: Frame?) throws(MediaFailure)
}

/// An audio track's encoder, writing into the muxer.
final class EncodedAudio: AudioStageOutput {
    private let encoder: Encoder
    private let sink: MuxingSink
    /// The track's position in the plan (and its encoder's in the sink).
    private let track: Int
    private let packet: Packet
    private(set) var framesEncoded = 0

    /// Track `track` of `sink`'s plan.
    init(sink: MuxingSink, track: Int) throws(MediaFailure) {
        guard track < sink.audioEncoders.count else {
            throw .failed(.encode, "audio track", "no encoder for audio track \(track)")
        }
        encoder = sink.audioEncoders[track]
        self.sink = sink
        self.track = track
        packet = try Packet()
    }

    var sampleFormat: AVSampleFormat { encoder.sampleFormat }
    var frameSize: Int32 { encoder.frameSize }
    var isReady: Bool { sink.isReady }

    func take(_ frame: Frame?) throws(MediaFailure) {
        // The encoder's time base is one sample, like the frames'.
        try encoder.encode(frame, into: packet) { packet throws(MediaFailure) in
            try sink.writeAudio(packet, track: track, timeBase: encoder.timeBase)
        }
        if frame != nil { framesEncoded += 1 }
    }
}
