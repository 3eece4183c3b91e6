internal import CFFmpeg

/// The rate, channels and sample format of decoded sound. A filter graph's input takes one
/// shape; a stream whose sound changes shape mid-way (a broadcast, recordings joined byte for
/// byte) needs its graph drained and made anew.
struct SoundShape: Equatable {
    var rate: Int32
    var channels: Int32
    var format: Int32

    init(_ frame: Frame) {
        rate = frame.sampleRate
        channels = frame.channelCount
        format = frame.format
    }
}
