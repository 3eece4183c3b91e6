internal import CFFmpeg

/// Where a source's data really ends, to tell a file cut short (an interrupted download or
/// copy) from a whole one.
package struct DataEnd {
    /// The latest end (time plus duration, seconds on the file's clock) of a packet read.
    private(set) var seconds = 0.0
    /// Whether reading since the last seek reached the end of the file.
    var reachedEndOfFile = false

    /// Whether media ending at `end` falls short of `declaredEnd` by more than a measuring
    /// difference: half a second, or 3% of the `duration` declared (containers round, and the
    /// last frame's or sound packet's length is guessed).
    package static func fallsShort(_ end: Double, of declaredEnd: Double, lasting duration: Double) -> Bool {
        end < declaredEnd - max(0.5, 0.03 * duration)
    }

    mutating func note(_ packet: Packet, in input: InputFile) {
        guard let pts = packet.presentationTimestamp, let stream = input.stream(packet.streamIndex) else { return }
        seconds = max(seconds, Double(pts + max(packet.duration, 0)) * av_q2d(stream.pointee.time_base))
    }

    /// Where the data ends, when reading reached the file's end well before the end its
    /// header gives (by half a second or 3%): the data stopped inside a packet, or every
    /// stream stopped early. Only the packets of the streams read are seen, so when some
    /// are left out (`readsEveryStream` false) only a packet cut off counts: a longer sound
    /// track left unread would look like missing data.
    func cutShort(_ input: InputFile, readsEveryStream: Bool) -> Double? {
        guard reachedEndOfFile, seconds > 0 else { return nil }
        if input.endedInsidePacket { return seconds }
        let declared = input.durationSeconds
        guard readsEveryStream, declared > 0 else { return nil }
        return Self.fallsShort(seconds, of: input.startSeconds + declared, lasting: declared) ? seconds : nil
    }
}

