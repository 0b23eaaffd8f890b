"""Adds an nclx `colr` property (or another) to the primary item of a HEIF file as
libheif 1.15's heif-enc writes it (ftyp, meta, mdat; iloc and ipma version
0). heif-enc 1.15 takes --colour_primaries and the rest but writes no colr
box (its macOS workaround drops nclx), so the fixtures that need one get it
here: the box goes at the end of ipco, its index is associated with the
primary item in ipma, the enclosing sizes grow, and iloc's offsets into
mdat move by as much. ISO/IEC 23008-12 (HEIF) and 14496-12 (ISOBMFF)."""
import struct


def _box(data, start, end, kind):
    at = start
    while at < end:
        size, name = struct.unpack('>I4s', data[at:at + 8])
        if name == kind:
            return at, size
        at += size
    raise ValueError(f'no {kind!r} box')


def add_nclx(data, primaries, transfer, matrix, full_range=True):
    nclx = b'nclx' + struct.pack('>HHHB', primaries, transfer, matrix, 0x80 if full_range else 0)
    return add_property(data, b'colr', nclx)


def add_property(data, kind, body):
    """Any item property (colr, irot, imir, clap) added the same way."""
    data = bytearray(data)
    colr = struct.pack('>I', 8 + len(body)) + kind + body
    meta, meta_size = _box(data, 0, len(data), b'meta')
    pitm, _ = _box(data, meta + 12, meta + meta_size, b'pitm')
    primary = struct.unpack('>H', data[pitm + 12:pitm + 14])[0]
    iprp, iprp_size = _box(data, meta + 12, meta + meta_size, b'iprp')
    ipco, ipco_size = _box(data, iprp + 8, iprp + iprp_size, b'ipco')
    count, at = 0, ipco + 8
    while at < ipco + ipco_size:
        count += 1
        at += struct.unpack('>I', data[at:at + 4])[0]
    ipma, ipma_size = _box(data, iprp + 8, iprp + iprp_size, b'ipma')
    assert data[ipma + 8] == 0 and data[ipma + 11] & 1 == 0, 'ipma version 0 with 1-byte indices'
    # The association, appended to the primary item's entry.
    entries, at, insert = struct.unpack('>I', data[ipma + 12:ipma + 16])[0], ipma + 16, None
    for _ in range(entries):
        item, n = struct.unpack('>HB', data[at:at + 3])
        if item == primary:
            data[at + 2] = n + 1
            insert = at + 3 + n
        at += 3 + n
    assert insert is not None, 'the primary item has no ipma entry'
    data[insert:insert] = bytes([count + 1])
    data[ipco + ipco_size:ipco + ipco_size] = colr
    grown = len(colr) + 1
    for box, size, by in ((meta, meta_size, grown), (iprp, iprp_size, grown), (ipco, ipco_size, len(colr))):
        struct.pack_into('>I', data, box, size + by)
    struct.pack_into('>I', data, ipma + len(colr), ipma_size + 1)
    # iloc's offsets point into mdat, which now starts `grown` bytes later.
    iloc, _ = _box(data, meta + 12, meta + meta_size + grown, b'iloc')
    assert data[iloc + 8] == 0, 'iloc version 0'
    offset_size, length_size = data[iloc + 12] >> 4, data[iloc + 12] & 15
    base_size = data[iloc + 13] >> 4
    items, at = struct.unpack('>H', data[iloc + 14:iloc + 16])[0], iloc + 16
    sizes = {4: '>I', 8: '>Q'}
    for _ in range(items):
        at += 4  # item_ID, data_reference_index
        if base_size:
            struct.pack_into(sizes[base_size], data, at, struct.unpack(sizes[base_size], data[at:at + base_size])[0] + grown)
        at += base_size
        extents = struct.unpack('>H', data[at:at + 2])[0]
        at += 2
        for _ in range(extents):
            if offset_size and not base_size:
                value = struct.unpack(sizes[offset_size], data[at:at + offset_size])[0]
                struct.pack_into(sizes[offset_size], data, at, value + grown)
            at += offset_size + length_size
    return bytes(data)
