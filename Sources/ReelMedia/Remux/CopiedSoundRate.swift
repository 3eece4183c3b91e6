/// The sample rate an AAC stream's packets declare in their ADTS headers (MPEG-TS carries AAC
/// so), watched during a stream copy: a copy keeps the first rate in the output's track
/// description, so sound that changes rate mid-stream (a broadcast, recordings joined byte for
/// byte) would play its later part at the wrong speed. Re-encoding resamples it instead.
struct CopiedSoundRate {
    /// The sampling frequencies of ADTS's frequency index.
    private static let rates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]
    private var first: [Int: Int] = [:]

    /// The rate declared by `bytes` when they start with an ADTS header, else nil.
    static func declaredRate(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count >= 7, bytes[0] == 0xFF, bytes[1] & 0xF6 == 0xF0 else { return nil }
        let index = Int(bytes[2] >> 2) & 0x0F
        return index < rates.count ? rates[index] : nil
    }

    /// The first rate of stream `stream` and the one `bytes` declare, when they differ.
    mutating func change(in bytes: UnsafeBufferPointer<UInt8>, stream: Int) -> (from: Int, to: Int)? {
        guard let rate = Self.declaredRate(bytes) else { return nil }
        guard let earlier = first[stream] else {
            first[stream] = rate
            return nil
        }
        return earlier == rate ? nil : (earlier, rate)
    }
}
