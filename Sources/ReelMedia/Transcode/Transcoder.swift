internal import CFFmpeg
import ReelSupport

/// Runs one `TranscodePlan` in a single pass: demux, decode, select, filter, encode, mux.
/// Blocking; call it off the cooperative thread pool. Every FFmpeg object lives and dies here.
package struct Transcoder {
    let plan: TranscodePlan
    /// Polled between packets; returning `true` stops the work with `MediaFailure.cancelled`.
    let shouldCancel: () -> Bool
    /// Receives the fraction (0...1) of the output timeline written so far.
    let progress: (Double) -> Void

    /// Creates the value from every field.
    package init(
        plan: TranscodePlan,
        shouldCancel: @escaping () -> Bool,
        progress: @escaping (Double) -> Void
    ) {
        self.plan = plan
        self.shouldCancel = shouldCancel
        self.progress = progress
    }

    package func run() throws(MediaFailure) -> TranscodeStatistics {
        let audioIndices = plan.audioTracks.map(\.streamIndex)
        let input = try InputFile.reopen(plan.source, keeping: Set([plan.videoStreamIndex] + audioIndices))
        let subtitles = try plan.subtitleStreamIndices.map { index throws(MediaFailure) in
            try SubtitleTrack(source: plan.source, streamIndex: index, formatName: plan.formatName)
        }
        let sink = try MuxingSink(plan: plan, metadataSource: plan.keepsMetadata ? input : nil, subtitles: subtitles)
        let sourceEnd = plan.source.layout?.endTimestamp(ofStream: plan.videoStreamIndex) ?? sourceEndTicks(input)
        let videoEnd = sourceEnd.flatMap { end in input.stream(plan.videoStreamIndex).map { Double(end) * av_q2d($0.pointee.time_base) } }
        let video = try VideoStage(input: input, plan: plan, sink: sink, fadeFilter: plan.pictureFadeFilter(videoEnd: videoEnd))
        let encoded = try plan.audioTracks.indices.map { track throws(MediaFailure) in try EncodedAudio(sink: sink, track: track) }
        let audio = try zip(plan.audioTracks, encoded).map { track, output throws(MediaFailure) in
            try AudioStage(input: input, streamIndex: track.streamIndex, settings: track.settings,
                           finishing: plan.audioFinishing(for: track, videoEnd: videoEnd), output: output)
        }
        let audioStage = Dictionary(uniqueKeysWithValues: zip(audioIndices, audio))
        let joins = plan.audioJoins
        let total = max(plan.ranges.map { ($0.end - $0.start).seconds }.reduce(0, +), 0.001)
        let rangeSeek = RangeSeek(input: input, videoStream: plan.videoStreamIndex,
                                  checksFirstPicture: plan.source.layout?.stream(plan.videoStreamIndex)?.isH264 == true)
        let reading = try Packet()
        var packetsRead = 0
        var outputSeconds = 0.0
        var previousPictureTail = false
        for (position, range) in plan.ranges.enumerated() {
            // The sound may start a little before the range (its join's overlap), on a warm decoder.
            let lead = audio.isEmpty ? 0 : plan.audioSeekLead(position: position, joins: joins)
            var pending = position > 0 || range.needsSeek ? try rangeSeek.packets(forRangeAt: range.start.seconds - lead) : []
            video.beginRange(range, dissolvesAfter: plan.dissolves(afterRange: position, duration: (range.end - range.start).seconds))
            // With a crossfade the range starts before the previous one ended: sound follows picture.
            let edges = joins.edges(
                position: position, outputOffset: video.rangeOffset, duration: (range.end - range.start).seconds,
                pictureBlendsIn: video.rangeOffset < outputSeconds - 1e-6, pictureTailStart: video.tailStart,
                followsPictureTail: previousPictureTail)
            previousPictureTail = video.tailStart != nil
            for stage in audio { stage.beginRange(range, outputOffset: video.rangeOffset, edges: edges) }
            for track in subtitles { track.schedule(range, outputOffset: video.rangeOffset, outputEnd: video.tailStart) }
            try sink.writeSubtitles()
            var atEndOfFile = false
            while !(video.isDone && audio.allSatisfy(\.isDone)) {
                if shouldCancel() { throw .cancelled }
                let packet: Packet
                if pending.isEmpty {
                    guard try input.read(into: reading) else {
                        atEndOfFile = true
                        break
                    }
                    packet = reading
                } else {
                    packet = pending.removeFirst()
                }
                defer { packet.unreference() }
                packetsRead += 1
                if packet.streamIndex == plan.videoStreamIndex {
                    try video.handle(packet)
                    progress(min(video.timelineEnd / total, 1))
                } else if let stage = audioStage[packet.streamIndex] {
                    try stage.handle(packet)
                }
                for stage in audio { try stage.drain() }
            }
            if shouldCancel() { throw .cancelled }
            try video.endRange(sourceEnd: sourceEnd, atEndOfFile: atEndOfFile)
            for stage in audio { try stage.endRange(atEndOfFile: atEndOfFile) }
            outputSeconds = video.timelineEnd
        }
        try video.finish()
        for stage in audio { try stage.finish() }
        let failed = video.corruptPackets + audio.map(\.corruptPackets).reduce(0, +)
        if failed > max(2, packetsRead / 50) {
            throw .failed(.decode, "avcodec_send_packet",
                          "\(failed) of \(packetsRead) packets are corrupt and could not be decoded")
        }
        if video.reducerKeptNothing && video.statistics.framesDecoded > 0 {
            throw .reducerMisbehaved("frame reducer \(video.reducerName) kept no frame of \(video.statistics.framesDecoded)")
        }
        guard sink.isReady else {
            let readsEveryStream = plan.audioTracks.count >= plan.source.audioStreams.count
            let read = input.dataRead
            let dataEnd = read.reachedEndOfFile && read.seconds > 0 ? max(read.seconds - plan.source.startTime, 0) : nil
            // The picture's own declared length tells a video cut short even when its sound was not read.
            let videoLength = plan.source.primaryVideo?.duration ?? 0
            let pictureCut = dataEnd.map { videoLength > 0 && DataEnd.fallsShort($0, of: videoLength, lasting: videoLength) } ?? false
            throw .nothingInRange(dataEnd: dataEnd, cutShort: pictureCut || input.cutShort(readsEveryStream: readsEveryStream) != nil)
        }
        try sink.output.finish()
        var statistics = video.statistics
        statistics.audioFramesEncoded = encoded.first?.framesEncoded ?? 0
        statistics.corruptPackets = failed
        statistics.damagedFrames = video.damagedFrames
        statistics.framesOutOfOrder = video.mistimedFrames
        statistics.sourceDataEnd = input.cutShort(readsEveryStream: plan.audioTracks.count >= plan.source.audioStreams.count)
        return statistics
    }

    /// The end of the video stream in its time base, when the container says (for a source
    /// described without its layout).
    private func sourceEndTicks(_ input: InputFile) -> Int64? {
        guard let stream = input.stream(plan.videoStreamIndex) else { return nil }
        let start = stream.pointee.start_time == reel_nopts_value() ? 0 : stream.pointee.start_time
        if stream.pointee.duration > 0, stream.pointee.duration != reel_nopts_value() {
            return start + stream.pointee.duration
        }
        let duration = input.context.pointee.duration
        guard duration > 0 else { return nil }
        return start + av_rescale_q(duration, reel_time_base_q(), stream.pointee.time_base)
    }
}
