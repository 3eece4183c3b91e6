import Foundation
import ReelSupport

/// One box (atom) of a QuickTime/ISO file: its type and where it lies in the bytes it was read from.
struct QuickTimeBox: Equatable {
    var type: String
    /// The whole box, header included.
    var range: Range<Int>
    var headerSize: Int
    /// The box's contents after its header.
    var payload: Range<Int> { range.lowerBound + headerSize..<range.upperBound }
}

/// Reading and writing QuickTime boxes: the few moves FFmpeg 5.1's MOV muxer cannot make
/// (it writes a timed-metadata track with no sample description) done on the bytes.
enum QuickTimeBoxes {
    /// The boxes laid one after another in `bytes[range]`; a box whose size runs past the range
    /// is an error naming `file`.
    static func children(of bytes: [UInt8], in range: Range<Int>, file: String) throws(MediaFailure) -> [QuickTimeBox] {
        var boxes: [QuickTimeBox] = []
        var position = range.lowerBound
        while position + 8 <= range.upperBound {
            guard let box = header(bytes, at: position, limit: range.upperBound) else {
                throw .failed(.demux, "reading \(file)", "a QuickTime box at byte \(position) runs past its parent")
            }
            boxes.append(box)
            position = box.range.upperBound
        }
        return boxes
    }

    /// The first child of type `type` along `path` below `range`, or nil.
    static func find(_ path: [String], in bytes: [UInt8], range: Range<Int>, file: String) throws(MediaFailure) -> QuickTimeBox? {
        guard let first = path.first else { return nil }
        guard let box = try children(of: bytes, in: range, file: file).first(where: { $0.type == first }) else { return nil }
        return path.count == 1 ? box : try find(Array(path.dropFirst()), in: bytes, range: box.payload, file: file)
    }

    /// The top-level boxes of the file at `path`, read from their headers only (a file of many
    /// gigabytes is not read whole).
    static func topLevel(of handle: FileHandle, file: String) throws(MediaFailure) -> [QuickTimeBox] {
        do {
            let length = Int(try handle.seekToEnd())
            var boxes: [QuickTimeBox] = []
            var position = 0
            while position + 8 <= length {
                try handle.seek(toOffset: UInt64(position))
                let head = [UInt8](try handle.read(upToCount: 16) ?? Data())
                guard var box = header(head, at: 0, limit: length - position) else {
                    throw MediaFailure.failed(.demux, "reading \(file)", "a QuickTime box at byte \(position) runs past the file's end")
                }
                box.range = position + box.range.lowerBound..<position + box.range.upperBound
                boxes.append(box)
                position = box.range.upperBound
            }
            return boxes
        } catch let failure as MediaFailure {
            throw failure
        } catch {
            throw .failed(.demux, "reading \(file)", error.localizedDescription)
        }
    }

    /// The bytes of `range` of the open file.
    static func read(_ range: Range<Int>, of handle: FileHandle, file: String) throws(MediaFailure) -> [UInt8] {
        do {
            try handle.seek(toOffset: UInt64(range.lowerBound))
            let data = try handle.read(upToCount: range.count) ?? Data()
            guard data.count == range.count else { throw CocoaError(.fileReadCorruptFile) }
            return [UInt8](data)
        } catch {
            throw .failed(.demux, "reading \(file)", "cannot read bytes \(range.lowerBound)-\(range.upperBound): \(error.localizedDescription)")
        }
    }

    /// A box of `type` around `payload`.
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        uint32(UInt32(8 + payload.count)) + Array(type.utf8.prefix(4)) + payload
    }

    /// A full box (version and flags first) of `type` around `payload`.
    static func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, uint32(UInt32(version) << 24 | flags & 0xFF_FFFF) + payload)
    }

    static func uint32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func uint16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

    static func uint64(_ value: UInt64) -> [UInt8] { uint32(UInt32(value >> 32)) + uint32(UInt32(value & 0xFFFF_FFFF)) }

    /// The big-endian integer of `count` bytes at `offset`.
    static func integer(_ bytes: [UInt8], at offset: Int, count: Int) -> UInt64 {
        bytes[offset..<offset + count].reduce(0) { $0 << 8 | UInt64($1) }
    }

    static func put32(_ value: UInt32, into bytes: inout [UInt8], at offset: Int) {
        bytes.replaceSubrange(offset..<offset + 4, with: uint32(value))
    }

    static func put64(_ value: UInt64, into bytes: inout [UInt8], at offset: Int) {
        bytes.replaceSubrange(offset..<offset + 8, with: uint64(value))
    }

    /// The box header at `position` of `bytes` (sizes 0, "to the end", and 1, 64-bit, included),
    /// nil when it is malformed or runs past `limit`.
    private static func header(_ bytes: [UInt8], at position: Int, limit: Int) -> QuickTimeBox? {
        guard position + 8 <= bytes.count else { return nil }
        let size32 = integer(bytes, at: position, count: 4)
        let type = String(decoding: bytes[position + 4..<position + 8], as: UTF8.self)
        var size = Int(size32), headerSize = 8
        if size32 == 1 {
            guard position + 16 <= bytes.count else { return nil }
            let large = integer(bytes, at: position + 8, count: 8)
            guard large <= UInt64(Int.max) else { return nil }
            size = Int(large)
            headerSize = 16
        } else if size32 == 0 {
            size = limit - position
        }
        guard size >= headerSize, position + size <= limit else { return nil }
        return QuickTimeBox(type: type, range: position..<position + size, headerSize: headerSize)
    }
}
