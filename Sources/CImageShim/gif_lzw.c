// GIF's LZW decoder. giflib still reads the file's records; this decodes
// the image data it hands over as raw sub-blocks (DGifGetCode).
//
// Why not DGifGetLine: giflib fetches each code through a call that reads
// a byte at a time, and pushes every string onto a stack to reverse it.
// On a 12-megapixel photo that was most of urlcache's time, more than the
// whole pipeline after it. Here codes come from a 64-bit bit buffer
// filled eight bytes at a time, and each string is written backwards
// straight into the line, where it belongs.
#include "gif_lzw.h"
#include <string.h>
#include <endian.h>

static void reset(gif_lzw *z, int min_size) {
    z->width = min_size + 1;
    z->next = z->clear + 2;
    z->prev = -1;
}

int gif_lzw_start(gif_lzw *z, int min_size, gif_lzw_next_block next_block, void *source) {
    // Set first: a refused start can still be drained.
    z->next_block = next_block;
    z->source = source;
    z->blocks_ended = 0;
    z->read_failed = 0;
    if (min_size < 1 || min_size > 8) return -1;
    z->clear = 1 << min_size;
    for (int i = 0; i < z->clear; i++) {
        z->first[i] = z->suffix[i] = (uint8_t)i;
        z->length[i] = 1;
    }
    reset(z, min_size);
    z->spill_at = z->spill_end = 0;
    z->in_at = z->in_end = 0;
    z->bits = 0;
    z->nbits = 0;
    return 0;
}

// Moves what is left to the front and appends sub-blocks while a whole
// one still fits. One that cannot be read ends the input but not yet the
// decoding: what was gathered before it is still decoded.
static void gather(gif_lzw *z) {
    int left = z->in_end - z->in_at;
    memmove(z->in, z->in + z->in_at, (size_t)left);
    z->in_at = 0;
    z->in_end = left;
    while (!z->blocks_ended && z->in_end + 255 <= (int)sizeof z->in - 8) {
        const uint8_t *block = NULL;
        int size = z->next_block(z->source, &block);
        if (size <= 0) {
            z->blocks_ended = 1;
            z->read_failed = size < 0;
            return;
        }
        memcpy(z->in + z->in_end, block, (size_t)size);
        z->in_end += size;
    }
}

// Tops the bit buffer up to at least 56 bits while input lasts. The fast
// path loads eight bytes and keeps the whole ones that fit; the bits of
// the next byte it also shifts in above `nbits` are that byte's own, so
// the next load ORs the same values over them.
static void refill(gif_lzw *z) {
    if (z->in_end - z->in_at < 8 && !z->blocks_ended) gather(z);
    if (z->in_end - z->in_at >= 8) {
        uint64_t word;
        memcpy(&word, z->in + z->in_at, 8);
        z->bits |= le64toh(word) << z->nbits;
        z->in_at += (63 - z->nbits) >> 3;
        z->nbits |= 56;
        return;
    }
    while (z->nbits <= 56 && z->in_at < z->in_end) {
        z->bits |= (uint64_t)z->in[z->in_at++] << z->nbits;
        z->nbits += 8;
    }
}

// Writes code's string into dst[0..<length], last byte first, following
// its prefixes down to a literal. Every prefix is a smaller code already
// in the table, so the walk ends, after exactly length[code] bytes.
static inline void spell(const gif_lzw *z, int code, uint8_t *restrict dst) {
    uint8_t *p = dst + z->length[code] - 1;
    while (code >= z->clear) {
        *p-- = z->suffix[code];
        code = z->prefix[code];
    }
    *p = (uint8_t)code;
}

// Codes grow a bit once the table reaches the next power of two. Only with
// a 1-bit minimum code size is it already there after a clear (4 of 4
// codes): giflib's reader widens then after the first code, and so does
// this one.
static inline void widen(gif_lzw *z) {
    if (z->next >= 1 << z->width && z->width < 12) z->width++;
}

// Adds prev's string plus the first byte of code's (or, when code is the
// entry being made, of prev's own: GIF's KwKwK case), and widens codes
// when the next one would not fit. A full table stays as it is until the
// encoder clears it.
static inline void extend(gif_lzw *z, int code) {
    int n = z->next, prev = z->prev;
    if (n >= GIF_LZW_MAX_CODES) return;
    z->prefix[n] = (uint16_t)prev;
    z->first[n] = z->first[prev];
    z->length[n] = (uint16_t)(z->length[prev] + 1);
    z->suffix[n] = z->first[code == n ? prev : code];
    z->next = n + 1;
    widen(z);
}

const char *gif_lzw_read(gif_lzw *z, uint8_t *restrict out, int count) {
    int written = 0;
    if (z->spill_at < z->spill_end) {
        int n = z->spill_end - z->spill_at < count ? z->spill_end - z->spill_at : count;
        memcpy(out, z->spill + z->spill_at, (size_t)n);
        z->spill_at += n;
        written = n;
    }
    const int clear = z->clear, min_size = __builtin_ctz((unsigned)clear);
    while (written < count) {
        if (z->nbits < z->width) {
            refill(z);
            if (z->nbits < z->width)
                return z->read_failed ? "the image data is cut short" : "the image data ends early";
        }
        int code = (int)(z->bits & ((1u << z->width) - 1));
        z->bits >>= z->width;
        z->nbits -= z->width;
        if (code == clear) {
            reset(z, min_size);
            continue;
        }
        if (code == clear + 1) return "the image data ends before its last pixel";
        if (z->prev < 0) {
            if (code > clear) return "an LZW code that is not in the table yet";
            out[written++] = (uint8_t)code;
            z->prev = code;
            widen(z);
            continue;
        }
        if (code > z->next) return "an LZW code that is not in the table yet";
        extend(z, code);
        int length = z->length[code];
        if (length <= count - written) {
            spell(z, code, out + written);
            written += length;
        } else {
            // The string runs past the line: the rest starts the next one.
            spell(z, code, z->spill);
            int n = count - written;
            memcpy(out + written, z->spill, (size_t)n);
            z->spill_at = n;
            z->spill_end = length;
            written = count;
        }
        z->prev = code;
    }
    return NULL;
}

int gif_lzw_drain(gif_lzw *z) {
    if (z->read_failed) return -1;
    while (!z->blocks_ended) {
        const uint8_t *block = NULL;
        int size = z->next_block(z->source, &block);
        if (size < 0) return -1;
        if (size == 0) z->blocks_ended = 1;
    }
    return 0;
}
