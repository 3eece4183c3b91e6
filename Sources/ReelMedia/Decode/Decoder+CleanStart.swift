import ReelSupport

extension Decoder {
    /// Where to seek so that decoding reaches `seconds` through undamaged pictures: `seconds`
    /// itself, or earlier (1, 2, 4... s, down to `fileStart`) when the keyframe a seek lands on
    /// cannot be decoded from. Phone files flag recovery points (an intra refresh) as keyframes:
    /// after them nothing, or damaged pictures, come out until the refresh completes, so a
    /// range starting there would lose its first seconds. Decodes from the landing keyframe only
    /// until the first picture comes out (a few packets, for reordering): it must be undamaged
    /// and not later than `seconds`. The caller seeks again to the point returned.
    func cleanSeekPoint(for seconds: Double, in input: InputFile, fileStart: Double) throws(MediaFailure) -> Double {
        var backoff = 0.0
        while true {
            let seekPoint = max(seconds - backoff, fileStart)
            if seekPoint <= fileStart { return fileStart }
            guard (try? input.seek(toSeconds: seekPoint)) != nil else { return seconds }
            flushBuffers()
            var clean = true
            try forEachFrame(in: input) { frame throws(MediaFailure) in
                guard let time = self.time(of: frame)?.seconds else { return true }
                // A later first picture means the one on screen at `seconds` would be missing.
                clean = !frame.isDamaged && time <= seconds + 1e-6
                return false
            }
            if clean { return seekPoint }
            backoff = backoff == 0 ? 1 : backoff * 2
        }
    }
}
