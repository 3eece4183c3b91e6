import Foundation
import ReelSupport

/// A QuickTime timed-metadata track of a source (an iPhone Cinematic video's focus decisions, a
/// camera's per-frame data): what a copy needs to write it again as the source describes it.
/// FFmpeg reads such a track as a data stream with codec tag `mebx` but keeps neither its sample
/// description (the key table saying what each item is) nor its track references.
struct TimedMetadataTrackSource {
    /// The source's track ID (`AVStream.id` for MOV).
    var trackID: UInt32
    /// The source's `tkhd`, `hdlr` and media header (`nmhd`/`gmhd`) boxes and its `stsd` (sample
    /// descriptions), each whole, copied as they are.
    var trackHeader: [UInt8]
    var handler: [UInt8]
    var mediaHeader: [UInt8]
    var sampleDescriptions: [UInt8]
    /// The media's ticks per second.
    var timescale: UInt32
    /// The track references (`cdsc`: describes those tracks), by source track ID.
    var references: [(type: String, trackIDs: [UInt32])]

    /// The tracks of `file` with these IDs, read from its `moov`; a missing one is an error.
    static func read(from file: URL, trackIDs: [UInt32]) throws(MediaFailure) -> [TimedMetadataTrackSource] {
        let name = file.lastPathComponent
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: file) } catch {
            throw .failed(.demux, "reading \(name)", error.localizedDescription)
        }
        defer { try? handle.close() }
        guard let moov = try QuickTimeBoxes.topLevel(of: handle, file: name).first(where: { $0.type == "moov" }) else {
            throw .failed(.demux, "reading \(name)", "it has no QuickTime movie box (moov)")
        }
        let bytes = try QuickTimeBoxes.read(moov.range, of: handle, file: name)
        var found: [UInt32: TimedMetadataTrackSource] = [:]
        for trak in try QuickTimeBoxes.children(of: bytes, in: moov.headerSize..<bytes.count, file: name) where trak.type == "trak" {
            guard let track = try Self(trak: trak, in: bytes, file: name), trackIDs.contains(track.trackID) else { continue }
            found[track.trackID] = track
        }
        return try trackIDs.map { id throws(MediaFailure) in
            guard let track = found[id] else {
                throw .failed(.demux, "reading \(name)", "its timed-metadata track \(id) has no complete sample description")
            }
            return track
        }
    }

    /// The track in `trak`, nil when a box it needs is missing.
    private init?(trak: QuickTimeBox, in bytes: [UInt8], file: String) throws(MediaFailure) {
        func box(_ path: [String]) throws(MediaFailure) -> QuickTimeBox? {
            try QuickTimeBoxes.find(path, in: bytes, range: trak.payload, file: file)
        }
        guard let tkhd = try box(["tkhd"]), let mdhd = try box(["mdia", "mdhd"]), let hdlr = try box(["mdia", "hdlr"]),
              let stsd = try box(["mdia", "minf", "stbl", "stsd"]),
              let minf = try box(["mdia", "minf"]) else { return nil }
        let header = try QuickTimeBoxes.children(of: bytes, in: minf.payload, file: file).first { ["nmhd", "gmhd"].contains($0.type) }
        guard let header else { return nil }
        let tkhdVersion = bytes[tkhd.payload.lowerBound], mdhdVersion = bytes[mdhd.payload.lowerBound]
        trackID = UInt32(QuickTimeBoxes.integer(bytes, at: tkhd.payload.lowerBound + (tkhdVersion == 1 ? 20 : 12), count: 4))
        timescale = UInt32(QuickTimeBoxes.integer(bytes, at: mdhd.payload.lowerBound + (mdhdVersion == 1 ? 20 : 12), count: 4))
        trackHeader = Array(bytes[tkhd.range])
        handler = Array(bytes[hdlr.range])
        mediaHeader = Array(bytes[header.range])
        sampleDescriptions = Array(bytes[stsd.range])
        references = []
        if let tref = try box(["tref"]) {
            for reference in try QuickTimeBoxes.children(of: bytes, in: tref.payload, file: file) {
                let ids = stride(from: reference.payload.lowerBound, to: reference.payload.upperBound - 3, by: 4)
                    .map { UInt32(QuickTimeBoxes.integer(bytes, at: $0, count: 4)) }
                references.append((reference.type, ids))
            }
        }
    }
}

/// The samples a copy keeps of one timed-metadata track, on the output's timeline.
struct TimedMetadataTrackCopy {
    var source: TimedMetadataTrackSource
    /// Each sample's start and length in the source media's ticks, and its bytes, in order.
    var samples: [(time: Int64, duration: Int64, bytes: [UInt8])] = []

    /// The track's length in its own ticks: from 0 to its last sample's end.
    var duration: Int64 { samples.last.map { $0.time + $0.duration } ?? 0 }

    /// The `trak` box: the source's headers and sample descriptions, new timing and sample
    /// tables, its samples' bytes one after another in one chunk (its 64-bit offset 0 until
    /// `setChunkOffset(_:in:)` sets it), references mapped through `outputTrackID` (references
    /// to tracks the copy left out dropped).
    func trak(trackID: UInt32, movieTimescale: UInt32, outputTrackID: (UInt32) -> UInt32?) -> [UInt8] {
        typealias Q = QuickTimeBoxes
        let scale = UInt64(max(source.timescale, 1))
        let movieDuration = UInt64(max(duration, 0)) * UInt64(movieTimescale) / scale
        let first = UInt64(max(samples.first?.time ?? 0, 0))

        var header = source.trackHeader
        let version = header[8]
        Q.put32(trackID, into: &header, at: version == 1 ? 28 : 20)
        if version == 1 { Q.put64(movieDuration, into: &header, at: 36) } else { Q.put32(UInt32(clamping: movieDuration), into: &header, at: 28) }

        var references: [UInt8] = []
        for reference in source.references {
            let ids = reference.trackIDs.compactMap(outputTrackID)
            if !ids.isEmpty { references += Q.box(reference.type, ids.flatMap(Q.uint32)) }
        }
        // A first sample after the output's start waits behind an empty edit.
        var edits: [UInt8] = []
        if first > 0 {
            let empty = first * UInt64(movieTimescale) / scale
            let entries = Q.uint32(2) + Q.uint32(UInt32(clamping: empty)) + Q.uint32(UInt32.max) + Q.uint32(0x1_0000)
                + Q.uint32(UInt32(clamping: movieDuration - min(empty, movieDuration))) + Q.uint32(0) + Q.uint32(0x1_0000)
            edits = Q.box("edts", Q.fullBox("elst", entries))
        }

        let mediaHeader = Q.fullBox("mdhd", version: 1, Q.uint64(0) + Q.uint64(0) + Q.uint32(UInt32(scale))
                                    + Q.uint64(UInt64(max(duration, 0)) - first) + Q.uint16(0x55C4) + Q.uint16(0))
        let dataReference = Q.box("dinf", Q.fullBox("dref", Q.uint32(1) + Q.fullBox("url ", flags: 1, [])))
        let table = Q.box("stbl", source.sampleDescriptions + timeToSample + sampleToChunk + sampleSizes
                          + Q.fullBox("co64", Q.uint32(1) + Q.uint64(0)))
        let media = Q.box("mdia", mediaHeader + source.handler + Q.box("minf", source.mediaHeader + dataReference + table))
        return Q.box("trak", header + (references.isEmpty ? [] : Q.box("tref", references)) + edits + media)
    }

    /// Sets the one chunk offset of a `trak` this type built: its `co64` entry is the box's last
    /// 8 bytes (the sample table is the last box of the media information, which is the last of
    /// the media, which is the last of the track).
    static func setChunkOffset(_ offset: UInt64, in trak: inout [UInt8]) {
        QuickTimeBoxes.put64(offset, into: &trak, at: trak.count - 8)
    }

    /// All the samples' bytes, in order.
    var data: [UInt8] { samples.flatMap(\.bytes) }

    private var timeToSample: [UInt8] {
        var runs: [(count: UInt32, delta: UInt32)] = []
        // Each sample lasts until the next one starts, so that the table adds up to the track.
        for (index, sample) in samples.enumerated() {
            let end = index + 1 < samples.count ? samples[index + 1].time : sample.time + sample.duration
            let delta = UInt32(clamping: max(end - sample.time, 0))
            if let last = runs.last, last.delta == delta { runs[runs.count - 1].count += 1 } else { runs.append((1, delta)) }
        }
        return QuickTimeBoxes.fullBox("stts", QuickTimeBoxes.uint32(UInt32(runs.count)) + runs.flatMap {
            QuickTimeBoxes.uint32($0.count) + QuickTimeBoxes.uint32($0.delta)
        })
    }

    private var sampleToChunk: [UInt8] {
        let entries: [UInt8] = samples.isEmpty ? QuickTimeBoxes.uint32(0)
            : QuickTimeBoxes.uint32(1) + QuickTimeBoxes.uint32(1) + QuickTimeBoxes.uint32(UInt32(samples.count)) + QuickTimeBoxes.uint32(1)
        return QuickTimeBoxes.fullBox("stsc", entries)
    }

    private var sampleSizes: [UInt8] {
        QuickTimeBoxes.fullBox("stsz", QuickTimeBoxes.uint32(0) + QuickTimeBoxes.uint32(UInt32(samples.count))
                               + samples.flatMap { QuickTimeBoxes.uint32(UInt32($0.bytes.count)) })
    }
}
