#!/usr/bin/env python3
"""Makes an H.264 MP4's non-IDR I picture a false entry point, as some phone files have:
a recovery-point SEI (recovery_frame_cnt 0, "clean from here") is put before sample N
(1-based) and N is listed as a sync sample, while the P pictures after it still refer to
pictures before it. Usage: false_entry_point.py IN.mp4 OUT.mp4 N (IN's moov last, one track)."""
import struct
import sys

SEI = bytes([0, 0, 0, 5, 0x06, 0x06, 0x01, 0xC4, 0x80])  # length, NAL 6, recovery point, cnt 0
TABLES = ['moov', 'trak', 'mdia', 'minf', 'stbl']


def boxes(buf, start, end):
    pos = start
    while pos < end:
        size, kind = struct.unpack('>I4s', buf[pos:pos + 8])
        yield pos, size, kind.decode('latin1')
        pos += size


def find(buf, path, start=0, end=None):
    for pos, size, kind in boxes(buf, start, len(buf) if end is None else end):
        if kind == path[0]:
            return (pos, size) if len(path) == 1 else find(buf, path[1:], pos + 8, pos + size)
    raise SystemExit('no ' + '/'.join(path))


def entries(buf, name, header, width):
    pos, _ = find(buf, TABLES + [name])
    count = struct.unpack('>I', buf[pos + header - 4:pos + header])[0]
    return [struct.unpack('>%dI' % width, buf[pos + header + 4 * width * i:pos + header + 4 * width * (i + 1)])
            for i in range(count)]


def main(source, target, sample):
    data = bytearray(open(source, 'rb').read())
    moov, moov_size = find(data, ['moov'])
    assert moov + moov_size == len(data), 'moov must be last'
    sizes = [entry[0] for entry in entries(data, 'stsz', 20, 1)]
    offsets = [entry[0] for entry in entries(data, 'stco', 16, 1)]
    runs = entries(data, 'stsc', 16, 3)
    # Where sample N starts in the file: its chunk's offset plus the samples before it there.
    per_chunk = []
    for index, (first, count, _) in enumerate(runs):
        last = runs[index + 1][0] - 1 if index + 1 < len(runs) else len(offsets)
        per_chunk += [count] * (last - first + 1)
    starts, number = [], 0
    for chunk, count in enumerate(per_chunk):
        position = offsets[chunk]
        for _ in range(count):
            starts.append(position)
            position += sizes[number]
            number += 1
    cut = starts[sample - 1]
    body = data[:cut] + SEI + data[cut:moov]
    mdat, mdat_size = find(data, ['mdat'])
    struct.pack_into('>I', body, mdat, mdat_size + len(SEI))
    tables = bytearray(data[moov:])
    pos, _ = find(tables, TABLES + ['stsz'])
    struct.pack_into('>I', tables, pos + 20 + 4 * (sample - 1), sizes[sample - 1] + len(SEI))
    pos, _ = find(tables, TABLES + ['stco'])
    for index, offset in enumerate(offsets):
        if offset > cut:
            struct.pack_into('>I', tables, pos + 16 + 4 * index, offset + len(SEI))
    # The sync sample table gains sample N: every box around it grows by 4 bytes.
    syncs = sorted({entry[0] for entry in entries(tables, 'stss', 16, 1)} | {sample})
    pos, size = find(tables, TABLES + ['stss'])
    table = tables[pos + 8:pos + 12] + struct.pack('>I', len(syncs)) + struct.pack('>%dI' % len(syncs), *syncs)
    grown = len(table) + 8 - size
    tables = tables[:pos] + struct.pack('>I4s', len(table) + 8, b'stss') + table + tables[pos + size:]
    for depth in range(len(TABLES)):
        outer, outer_size = find(tables, TABLES[:depth + 1])
        struct.pack_into('>I', tables, outer, outer_size + grown)
    open(target, 'wb').write(body + tables)


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
