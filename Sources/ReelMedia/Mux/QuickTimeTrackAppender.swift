import Foundation
import ReelSupport

/// Adds timed-metadata tracks to a MOV FFmpeg has written, rewriting it once as a fast-start
/// file: `ftyp`, the movie box with the new tracks, the media data FFmpeg wrote (its chunk
/// offsets moved to match), then one media-data box with the new tracks' samples.
struct QuickTimeTrackAppender {
    /// The MOV FFmpeg wrote; it is replaced by the rewritten file.
    var path: String
    var tracks: [TimedMetadataTrackCopy]
    /// The output track ID of a source track ID, nil for a track the copy left out.
    var outputTrackID: (UInt32) -> UInt32?

    func run() throws(MediaFailure) {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let rewritten = path + ".tracks"
        do {
            try rewrite(into: rewritten, name: name)
            guard rename(rewritten, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            try? FileManager.default.removeItem(atPath: rewritten)
            if let failure = error as? MediaFailure { throw failure }
            throw .failed(.mux, "writing \(name)", error.localizedDescription)
        }
    }

    private func rewrite(into target: String, name: String) throws {
        let input = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? input.close() }
        let boxes = try QuickTimeBoxes.topLevel(of: input, file: name)
        guard let moovBox = boxes.first(where: { $0.type == "moov" }) else {
            throw MediaFailure.failed(.mux, "writing \(name)", "the muxer wrote no movie box (moov)")
        }
        guard moovBox.headerSize == 8 else {
            throw MediaFailure.failed(.mux, "writing \(name)", "the muxer wrote a 64-bit movie box header")
        }
        var moov = try QuickTimeBoxes.read(moovBox.range, of: input, file: name)
        let children = try QuickTimeBoxes.children(of: moov, in: 8..<moov.count, file: name)
        guard let mvhd = children.first(where: { $0.type == "mvhd" }) else {
            throw MediaFailure.failed(.mux, "writing \(name)", "the movie box has no header (mvhd)")
        }
        let version = moov[mvhd.payload.lowerBound]
        let movieTimescale = UInt32(QuickTimeBoxes.integer(moov, at: mvhd.payload.lowerBound + (version == 1 ? 20 : 12), count: 4))
        let nextID = UInt32(QuickTimeBoxes.integer(moov, at: mvhd.range.upperBound - 4, count: 4))

        // Built once; their 64-bit chunk offsets are set below, once the layout is known.
        var traks = tracks.enumerated().map { index, track in
            track.trak(trackID: nextID + UInt32(index), movieTimescale: movieTimescale, outputTrackID: outputTrackID)
        }
        let leading = boxes.filter { $0.type == "ftyp" }
        let others = boxes.filter { $0.type != "ftyp" && $0.type != "moov" }
        var position = leading.reduce(0) { $0 + $1.range.count } + moov.count + traks.reduce(0) { $0 + $1.count }
        var moved: [(from: Range<Int>, to: Int)] = []
        for box in others {
            moved.append((box.range, position))
            position += box.range.count
        }
        let samples = tracks.map(\.data)
        let mdatHeader = 16
        var dataOffset = UInt64(position + mdatHeader)
        for index in traks.indices {
            TimedMetadataTrackCopy.setChunkOffset(dataOffset, in: &traks[index])
            dataOffset += UInt64(samples[index].count)
        }
        let newTracks = traks.flatMap { $0 }
        try moveChunkOffsets(in: &moov, children: children, moved: moved, name: name)
        let longest = tracks.map { UInt64(max($0.duration, 0)) * UInt64(movieTimescale) / UInt64(max($0.source.timescale, 1)) }.max() ?? 0
        if version == 1 {
            let at = mvhd.payload.lowerBound + 24
            QuickTimeBoxes.put64(max(QuickTimeBoxes.integer(moov, at: at, count: 8), longest), into: &moov, at: at)
        } else {
            let at = mvhd.payload.lowerBound + 16
            QuickTimeBoxes.put32(UInt32(clamping: max(QuickTimeBoxes.integer(moov, at: at, count: 4), longest)), into: &moov, at: at)
        }
        QuickTimeBoxes.put32(nextID + UInt32(tracks.count), into: &moov, at: mvhd.range.upperBound - 4)
        moov += newTracks
        QuickTimeBoxes.put32(UInt32(moov.count), into: &moov, at: 0)

        guard FileManager.default.createFile(atPath: target, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: target))
        defer { try? output.close() }
        for box in leading { try output.write(contentsOf: try QuickTimeBoxes.read(box.range, of: input, file: name)) }
        try output.write(contentsOf: moov)
        for box in others { try copy(box.range, from: input, to: output) }
        let payload = samples.joined()
        try output.write(contentsOf: QuickTimeBoxes.uint32(1) + Array("mdat".utf8) + QuickTimeBoxes.uint64(UInt64(mdatHeader + payload.count)))
        try output.write(contentsOf: Array(payload))
        try output.synchronize()
    }

    /// Every existing track's chunk offsets (`stco`, `co64`) moved with the box they point into.
    private func moveChunkOffsets(in moov: inout [UInt8], children: [QuickTimeBox],
                                  moved: [(from: Range<Int>, to: Int)], name: String) throws {
        for trak in children where trak.type == "trak" {
            guard let stbl = try QuickTimeBoxes.find(["mdia", "minf", "stbl"], in: moov, range: trak.payload, file: name) else { continue }
            for table in try QuickTimeBoxes.children(of: moov, in: stbl.payload, file: name) where ["stco", "co64"].contains(table.type) {
                let width = table.type == "co64" ? 8 : 4
                let count = Int(QuickTimeBoxes.integer(moov, at: table.payload.lowerBound + 4, count: 4))
                for entry in 0..<count {
                    let at = table.payload.lowerBound + 8 + entry * width
                    guard at + width <= table.range.upperBound else { break }
                    let offset = Int(QuickTimeBoxes.integer(moov, at: at, count: width))
                    guard let move = moved.first(where: { $0.from.contains(offset) }) else { continue }
                    let new = offset - move.from.lowerBound + move.to
                    if width == 8 {
                        QuickTimeBoxes.put64(UInt64(new), into: &moov, at: at)
                    } else {
                        guard new <= Int(UInt32.max) else {
                            throw MediaFailure.failed(.mux, "writing \(name)", "a chunk offset passes 4 GiB in a 32-bit table")
                        }
                        QuickTimeBoxes.put32(UInt32(new), into: &moov, at: at)
                    }
                }
            }
        }
    }

    private func copy(_ range: Range<Int>, from input: FileHandle, to output: FileHandle) throws {
        try input.seek(toOffset: UInt64(range.lowerBound))
        var left = range.count
        while left > 0 {
            guard let data = try input.read(upToCount: min(left, 4 << 20)), !data.isEmpty else {
                throw CocoaError(.fileReadCorruptFile)
            }
            try output.write(contentsOf: data)
            left -= data.count
        }
    }
}
