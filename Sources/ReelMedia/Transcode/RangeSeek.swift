internal import CFFmpeg
import ReelSupport

/// Where decoding starts for a range that does not start at the file's start.
///
/// A seek lands on a keyframe at or before the range in indexed files. Two kinds of file need
/// more: demuxers without an index (MPEG-TS) land between keyframes, where nothing decodes until
/// the next keyframe; and phone H.264 flags recovery points (an intra refresh) as keyframes,
/// after which nothing, or damaged pictures, come out until the refresh completes. Either way
/// the range's first pictures would be lost, so the seek goes 1, 2, 4... s earlier until it
/// starts on a keyframe at or before the range whose first picture decodes undamaged and on
/// time, down to the file's start. Only the packets from the landing point up to that first
/// picture are read twice (they are handed to the transcoder, not read again).
struct RangeSeek {
    let input: InputFile
    let videoStream: Int
    /// Whether the first picture is decoded to check it (H.264, where recovery points occur).
    let checksFirstPicture: Bool

    /// How far past a landing point a keyframe is looked for, in seconds of video.
    static let keyframeSearch = 30.0

    /// Seeks for a range starting at `seconds` (the file's clock) and returns the packets read
    /// so far, in file order, from the video keyframe decoding starts at (audio packets read
    /// before it are kept). Empty when it went back to the file's start.
    func packets(forRangeAt seconds: Double) throws(MediaFailure) -> [Packet] {
        var backoff = 0.0
        while true {
            let point = seconds - backoff
            // Raw elementary streams cannot seek by time: from the start, then.
            guard point > input.startSeconds, input.seeksByTime, (try? input.seek(toSeconds: point)) != nil else {
                try input.rewind()
                return []
            }
            if var read = try packetsFromKeyframe(notAfter: seconds) {
                let clean = checksFirstPicture ? try decodesCleanly(&read, upTo: seconds) : true
                if clean { return read }
            }
            backoff = backoff == 0 ? 1 : backoff * 2
        }
    }

    /// The packets from the first video keyframe after the landing point (with the audio read
    /// before it), or `nil` when that keyframe is after `seconds` or none comes soon.
    private func packetsFromKeyframe(notAfter seconds: Double) throws(MediaFailure) -> [Packet]? {
        guard let stream = input.stream(videoStream) else { return nil }
        let timeBase = av_q2d(stream.pointee.time_base)
        var read: [Packet] = []
        var landed: Double?
        let packet = try Packet()
        while try input.read(into: packet) {
            let kept = try packet.reference()
            packet.unreference()
            guard kept.streamIndex == videoStream else {
                read.append(kept)
                continue
            }
            let time = kept.presentationTimestamp.map { Double($0) * timeBase }
            if kept.isKeyframe {
                if let time, time > seconds + 1e-6 { return nil }
                read.append(kept)
                return read
            }
            // A picture before the first keyframe: nothing decodes from it; dropped.
            if let time {
                let start = landed ?? time
                landed = start
                if time - start > Self.keyframeSearch { return nil }
            }
        }
        return nil
    }

    /// Decodes `read` (reading on, into `read`, up to the first picture at or after `seconds`):
    /// true when the first picture is not later than `seconds` and every picture up to the range
    /// is undamaged: no damage flag, and no error logged (a P picture whose reference lies before
    /// the landing is concealed with another picture and flagged nothing, only logged: a phone
    /// file's recovery point that is no clean entry point showed grey garbage). One thread, so
    /// the verdict does not depend on how frame threads interleave.
    private func decodesCleanly(_ read: inout [Packet], upTo seconds: Double) throws(MediaFailure) -> Bool {
        let decoder = try Decoder(input: input, streamIndex: videoStream, threads: 1)
        decoder.countLoggedErrors()
        let frame = try Frame()
        var verdict: Bool?
        var first = true
        func feed(_ packet: Packet?) throws(MediaFailure) {
            try decoder.decode(packet, into: frame) { picture throws(MediaFailure) in
                guard let time = decoder.time(of: picture)?.seconds else { return true }
                defer { first = false }
                if picture.isDamaged || decoder.loggedErrors > 0 || (first && time > seconds + 1e-6) {
                    verdict = false
                } else if time >= seconds - 1e-6 {
                    verdict = true
                }
                return verdict == nil
            }
        }
        for packet in read where packet.streamIndex == videoStream {
            try feed(packet)
            if let verdict { return verdict }
        }
        let packet = try Packet()
        while verdict == nil, try input.read(into: packet) {
            let kept = try packet.reference()
            packet.unreference()
            read.append(kept)
            if kept.streamIndex == videoStream { try feed(kept) }
        }
        if verdict == nil { try feed(nil) }
        return verdict ?? true
    }
}
