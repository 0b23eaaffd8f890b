// A HEIF file's boxes, read before libheif parses them (ISO/IEC 23008-12
// and 14496-12): only to count what libheif would take too long over.
#include "heif_boxes.h"

static uint32_t be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }
static uint32_t be32(const uint8_t *p) { return be16(p) << 16 | be16(p + 2); }

/// The box at `at` in [at, end): its size (0 when none fits there), its
/// type and its header's length (8, or 16 for a 64-bit size).
static size_t box_at(const uint8_t *p, size_t at, size_t end, uint32_t *type, size_t *header) {
    if (at > end || end - at < 8) return 0;
    uint64_t size = be32(p + at);
    *type = be32(p + at + 4);
    *header = 8;
    if (size == 1) {
        if (end - at < 16) return 0;
        size = (uint64_t)be32(p + at + 8) << 32 | be32(p + at + 12);
        *header = 16;
    } else if (size == 0) {
        size = end - at;
    }
    return size < *header || size > end - at ? 0 : (size_t)size;
}

#define FOURCC(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

void heif_count_items(const uint8_t *p, size_t n, uint32_t *items, uint32_t *tiles) {
    uint32_t type = 0, primary = 0;
    size_t header, size, meta = 0, meta_end = 0;
    *items = *tiles = 0;
    for (size_t at = 0; (size = box_at(p, at, n, &type, &header)); at += size) {
        if (type == FOURCC('m', 'e', 't', 'a')) {
            meta = at + header + 4;  // a full box: version and flags
            meta_end = at + size;
            break;
        }
    }
    if (!meta_end) return;
    for (size_t at = meta; (size = box_at(p, at, meta_end, &type, &header)); at += size) {
        const uint8_t *body = p + at + header;
        if (type == FOURCC('p', 'i', 't', 'm') && size >= header + 6 && (body[0] == 0 || size >= header + 8)) {
            primary = body[0] == 0 ? be16(body + 4) : be32(body + 4);
        } else if (type == FOURCC('i', 'i', 'n', 'f') && size >= header + 8) {
            *items = body[0] == 0 ? be16(body + 4) : be32(body + 4);
        }
    }
    for (size_t at = meta; (size = box_at(p, at, meta_end, &type, &header)); at += size) {
        if (type != FOURCC('i', 'r', 'e', 'f') || size < header + 4) continue;
        int wide = p[at + header] != 0;  // version 1: 32-bit item IDs
        size_t end = at + size, child;
        uint32_t kind;
        for (size_t r = at + header + 4; (child = box_at(p, r, end, &kind, &header)); r += child) {
            const uint8_t *ref = p + r + header;
            size_t need = wide ? 6 : 4;
            if (kind != FOURCC('d', 'i', 'm', 'g') || child < header + need) continue;
            uint32_t from = wide ? be32(ref) : be16(ref);
            if (from == primary) *tiles += be16(ref + (wide ? 4 : 2));
            if (*tiles >= 1u << 24) return;  // enough to refuse; no overflow
        }
    }
}
