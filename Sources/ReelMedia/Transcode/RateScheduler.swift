/// Applies a plan's rate schedule to an encoder that works some pictures behind its input.
///
/// x264 takes a new rate factor for the picture it starts encoding in the call that passes it,
/// and that is the oldest picture still in its lookahead (`rc-lookahead` 40 and the B-frames:
/// about 1.5 s at `medium`), not the one passed: on BBB a change sent with the picture at 5 s
/// showed from 3.5 s. So a change is made when the oldest picture not yet out as a packet
/// comes within `lead` of its time (the anchor picture at the time is coded before the
/// B-pictures shown just before it: up to 4 at x264 and x265 defaults); the keyframe that
/// opens a scheduled segment is forced on the picture at the time itself. The pictures of the last lookahead are encoded by the flush, which takes
/// no new rate: a change that falls there is made when its picture is passed.
struct RateScheduler {
    private let changes: [RateChange]
    /// Seconds of output, to tell the last lookahead.
    private let outputEnd: Double
    /// How far ahead of the oldest picture in flight a change is made, in seconds.
    private let lead: Double
    private var nextRate = 0
    private var nextKeyframe = 0
    /// Times of the pictures passed to the encoder and not yet out as packets, from `head`.
    private var inFlight: [Double] = []
    private var head = 0

    init(changes: [RateChange], outputEnd: Double, frameRate: Double) {
        self.changes = changes.sorted { $0.start < $1.start }
        self.outputEnd = outputEnd
        lead = 4 / max(frameRate, 1)
    }

    var isEmpty: Bool { changes.isEmpty }

    /// The encoder wrote a packet: one picture fewer in flight.
    mutating func packetWritten() {
        guard !changes.isEmpty else { return }
        head = min(head + 1, inFlight.count)
        if head > 4096 {
            inFlight.removeFirst(head)
            head = 0
        }
    }

    /// Before the picture at `time` (output seconds) goes to the encoder: whether it must be
    /// a keyframe, and the rate factor to set now, if any.
    mutating func beforeSending(time: Double) -> (keyframe: Bool, rateFactor: Double?) {
        guard !changes.isEmpty else { return (false, nil) }
        inFlight.append(time)
        var keyframe = false
        while nextKeyframe < changes.count && time >= changes[nextKeyframe].start - 1e-4 {
            if changes[nextKeyframe].forcesKeyframe && time > 1e-4 { keyframe = true }
            nextKeyframe += 1
        }
        let starting = inFlight[min(head, inFlight.count - 1)]
        let clock = time + (time - starting) >= outputEnd - 1e-4 ? time : min(starting + lead, time)
        var rateFactor: Double?
        while nextRate < changes.count && clock >= changes[nextRate].start - 1e-4 {
            rateFactor = changes[nextRate].constantRateFactor
            nextRate += 1
        }
        return (keyframe, rateFactor)
    }
}
