#!/usr/bin/env python3
"""Adds a QuickTime timed-metadata track ('meta' handler, 'mebx' sample entry with a key table)
to a MOV whose moov is last, the way an iPhone Cinematic video carries its per-frame focus
decisions next to its video and disparity tracks. The ffmpeg CLI cannot write such a track.

Usage: timed_metadata_track.py IN.mov OUT.mov FPS SECONDS

Each sample lasts one frame and holds two items: key 1, the focus disparity (a big-endian
float32, well-known type 23), and key 2, the focus rectangle (four big-endian float32, x y w h
normalised, no declared type), following a disc that moves right 40 px/s across a 320x180
picture from x=80 (the fixture's disparity track). The keys are this fixture's own
(org.reel.fixture.*): Apple does not publish its Cinematic key names. The track refers to track
1 with a 'cdsc' reference (it describes that track), as Apple's metadata tracks do."""
import struct
import sys


def box(kind, payload):
    return struct.pack('>I4s', 8 + len(payload), kind.encode('latin1')) + payload


def full(kind, version, flags, payload):
    return box(kind, struct.pack('>I', (version << 24) | flags) + payload)


def children(buf, start, end):
    pos = start
    while pos < end:
        size, kind = struct.unpack('>I4s', buf[pos:pos + 8])
        yield pos, size, kind.decode('latin1')
        pos += size


def find(buf, kind, start, end):
    for pos, size, name in children(buf, start, end):
        if name == kind:
            return pos, size
    raise SystemExit('no ' + kind)


KEYS = [('org.reel.fixture.focus-disparity', 23), ('org.reel.fixture.focus-rect', None)]


def sample_entry():
    entries = b''
    for number, (name, well_known) in enumerate(KEYS, start=1):
        body = box('keyd', b'mdta' + name.encode())
        if well_known is not None:
            body += box('dtyp', struct.pack('>II', 0, well_known))
        entries += struct.pack('>II', 8 + len(body), number) + body
    return box('mebx', bytes(6) + struct.pack('>H', 1) + box('keys', entries))


def sample(frame, fps):
    seconds = frame / fps
    x = 80 + 40 * seconds
    disparity = 0.5 + 0.25 * seconds
    rect = (x - 40) / 320, 50 / 180, 80 / 320, 80 / 180
    first = struct.pack('>II', 12, 1) + struct.pack('>f', disparity)
    second = struct.pack('>II', 24, 2) + struct.pack('>4f', *rect)
    return first + second


def trak(track_id, movie_scale, fps, count, offset, sizes):
    media_scale = fps * 100
    media_duration = count * 100
    movie_duration = media_duration * movie_scale // media_scale
    matrix = struct.pack('>9I', 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)
    tkhd = full('tkhd', 0, 0x3, struct.pack('>IIII', 0, 0, track_id, 0) + struct.pack('>I', movie_duration)
                + bytes(8) + struct.pack('>hhhh', 0, 0, 0, 0) + matrix + struct.pack('>II', 0, 0))
    mdhd = full('mdhd', 0, 0, struct.pack('>IIIIHH', 0, 0, media_scale, media_duration, 0x55C4, 0))
    name = b'TimedMetadata'
    hdlr = full('hdlr', 0, 0, b'mhlr' + b'meta' + bytes(12) + bytes([len(name)]) + name)
    dinf = box('dinf', full('dref', 0, 0, struct.pack('>I', 1) + full('alis', 0, 1, b'')))
    stsd = full('stsd', 0, 0, struct.pack('>I', 1) + sample_entry())
    stts = full('stts', 0, 0, struct.pack('>III', 1, count, 100))
    stsc = full('stsc', 0, 0, struct.pack('>IIII', 1, 1, count, 1))
    stsz = full('stsz', 0, 0, struct.pack('>II', 0, count) + b''.join(struct.pack('>I', s) for s in sizes))
    stco = full('stco', 0, 0, struct.pack('>II', 1, offset))
    minf = box('minf', full('nmhd', 0, 0, b'') + dinf + box('stbl', stsd + stts + stsc + stsz + stco))
    tref = box('tref', box('cdsc', struct.pack('>I', 1)))
    return box('trak', tkhd + tref + box('mdia', mdhd + hdlr + minf))


def main(source, target, fps, seconds):
    data = open(source, 'rb').read()
    top = {kind: (pos, size) for pos, size, kind in children(data, 0, len(data))}
    moov, moov_size = top['moov']
    if moov + moov_size != len(data):
        raise SystemExit('moov must be last')
    samples = [sample(frame, fps) for frame in range(int(round(fps * seconds)))]
    payload = b''.join(samples)
    mdat = box('mdat', payload)
    mvhd, _ = find(data, 'mvhd', moov + 8, moov + moov_size)
    movie_scale, = struct.unpack('>I', data[mvhd + 20:mvhd + 24])
    next_id, = struct.unpack('>I', data[mvhd + 8 + 96:mvhd + 8 + 100])
    track = trak(next_id, movie_scale, fps, len(samples), moov + 8, [len(s) for s in samples])
    body = bytearray(data[moov + 8:moov + moov_size]) + track
    struct.pack_into('>I', body, mvhd - moov - 8 + 8 + 96, next_id + 1)
    with open(target, 'wb') as out:
        out.write(data[:moov] + mdat + box('moov', bytes(body)))


if __name__ == '__main__':
    if len(sys.argv) != 5:
        raise SystemExit(__doc__)
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
