#!/usr/bin/env python3
"""Marks the primary image of a HEIF file (as heif-enc writes it) to be shown
turned: adds an essential 'irot' property (angle in quarter turns
anticlockwise) to the item, as an iPhone does for a photo taken sideways.
heif-enc 1.15 cannot write irot itself. Usage: heif-irot.py in.heic out.heic 3
"""
import struct
import sys


def boxes(data, start, end):
    """Yields (type, box start, payload start, box end) of the boxes in data[start:end]."""
    i = start
    while i + 8 <= end:
        size, kind = struct.unpack(">I4s", data[i:i + 8])
        if size < 8 or i + size > end:
            raise SystemExit("unsupported box layout")
        yield kind.decode(), i, i + 8, i + size
        i += size


def find(data, start, end, kind):
    for k, s, p, e in boxes(data, start, end):
        if k == kind:
            return s, p, e
    raise SystemExit("no %s box" % kind)


def main():
    src, dst, angle = sys.argv[1], sys.argv[2], int(sys.argv[3])
    d = bytearray(open(src, "rb").read())
    meta_s, meta_p, meta_e = find(d, 0, len(d), "meta")
    meta_p += 4  # full box
    _, pitm_p, _ = find(d, meta_p, meta_e, "pitm")
    primary = struct.unpack(">H", d[pitm_p + 4:pitm_p + 6])[0]
    iprp_s, iprp_p, iprp_e = find(d, meta_p, meta_e, "iprp")
    ipco_s, ipco_p, ipco_e = find(d, iprp_p, iprp_e, "ipco")
    index = len(list(boxes(d, ipco_p, ipco_e))) + 1  # the new property's 1-based index
    irot = struct.pack(">I4sB", 9, b"irot", angle & 3)
    ipma_s, ipma_p, ipma_e = find(d, iprp_p, iprp_e, "ipma")
    version, flags = d[ipma_p], int.from_bytes(d[ipma_p + 1:ipma_p + 4], "big")
    if version != 0 or flags & 1:
        raise SystemExit("unsupported ipma")
    # Rebuild ipma with the association added to the primary item.
    out = bytearray(d[ipma_p:ipma_p + 8])
    count = struct.unpack(">I", d[ipma_p + 4:ipma_p + 8])[0]
    i = ipma_p + 8
    for _ in range(count):
        item, n = struct.unpack(">HB", d[i:i + 3])
        assoc = d[i + 3:i + 3 + n]
        i += 3 + n
        if item == primary:
            assoc += bytes([0x80 | index])  # essential
            n += 1
        out += struct.pack(">HB", item, n) + assoc
    ipma = struct.pack(">I4s", 8 + len(out), b"ipma") + out
    grow = len(irot) + len(ipma) - (ipma_e - ipma_s)
    # Shift the file offsets iloc holds for data after meta (mdat).
    iloc_s, iloc_p, iloc_e = find(d, meta_p, meta_e, "iloc")
    v = d[iloc_p]
    if v not in (0, 1):
        raise SystemExit("unsupported iloc")
    sizes = d[iloc_p + 4], d[iloc_p + 5]
    off_size, len_size, base_size = sizes[0] >> 4, sizes[0] & 15, sizes[1] >> 4
    idx_size = sizes[1] & 15 if v == 1 else 0
    j = iloc_p + 6
    items = struct.unpack(">H", d[j:j + 2])[0]
    j += 2

    def shift(pos, size):
        if size == 0:
            return
        fmt = ">I" if size == 4 else ">Q"
        old = struct.unpack(fmt, d[pos:pos + size])[0]
        if old >= meta_e:
            d[pos:pos + size] = struct.pack(fmt, old + grow)

    for _ in range(items):
        j += 2  # item id
        method = 0
        if v == 1:
            method = struct.unpack(">H", d[j:j + 2])[0] & 15
            j += 2
        j += 2  # data reference index
        base_pos = j
        j += base_size
        extents = struct.unpack(">H", d[j:j + 2])[0]
        j += 2
        if method == 0:
            shift(base_pos, base_size)
        for _ in range(extents):
            j += idx_size
            if method == 0 and base_size == 0:
                shift(j, off_size)
            j += off_size + len_size
    # Splice: ipma replaced, irot appended to ipco, sizes of the parents grown.
    d[ipma_s:ipma_e] = ipma
    d[ipco_e:ipco_e] = irot
    for start in (ipco_s,):
        struct.pack_into(">I", d, start, struct.unpack(">I", d[start:start + 4])[0] + len(irot))
    for start in (iprp_s, meta_s):
        struct.pack_into(">I", d, start, struct.unpack(">I", d[start:start + 4])[0] + grow)
    open(dst, "wb").write(d)


main()
