// GIF's LZW decoder. giflib still reads the file's records; this decodes
// the image data it hands over as raw sub-blocks (DGifGetCode).
//
// Why not DGifGetLine: giflib fetches each code through a call that reads
// a byte at a time, and pushes every string onto a stack to reverse it.
// On a 12-megapixel photo that was most of urlcache's time, more than the
// whole pipeline after it. Here codes come from a 64-bit bit buffer
// filled eight bytes at a time; a string of up to 8 bytes is one store
// (each code keeps its first 8), and a longer one is copied from where
// it was last written, or else written backwards from its last byte,
// following its prefixes. On a smooth picture most long strings repeat
// the line above.
#include "gif_lzw.h"
#include <stdlib.h>
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
        z->head[i] = (uint64_t)i;
        z->length[i] = 1;
    }
    reset(z, min_size);
    memset(z->at, 0xFF, sizeof z->at);   // GIF_LZW_NOWHERE
    z->base = z->end = z->taken = z->prev_at = 0;
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

// Writes code's string at dst, with up to 8 bytes of whatever after it
// (the window has room): its first 8 bytes in one store, then, for a longer
// string, the rest from its last byte back, following its prefixes. Every
// prefix is a smaller code already in the table, so the walk ends.
static inline void spell(const gif_lzw *z, int code, uint8_t *dst) {
    uint64_t head = htole64(z->head[code]);
    memcpy(dst, &head, 8);
    int length = z->length[code];
    for (uint8_t *p = dst + length - 1; p >= dst + 8; p--) {
        *p = z->suffix[code];
        code = z->prefix[code];
    }
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
    int length = z->length[prev];
    uint8_t last = z->first[code == n ? prev : code];
    z->prefix[n] = (uint16_t)prev;
    z->first[n] = z->first[prev];
    z->length[n] = (uint16_t)(length + 1);
    z->suffix[n] = last;
    z->head[n] = length < 8 ? z->head[prev] | (uint64_t)last << (8 * length) : z->head[prev];
    z->next = n + 1;
    widen(z);
}

// A window of 1 MiB or more. A slide keeps its last 64 KiB (50 lines of
// a 1280-pixel picture, for copies from the lines above), and at least a
// line and a string (at most 4095 bytes, and 8 bytes of an 8-byte store
// past one); the rest is room. Keeping half of a small window moved a
// byte for every byte decoded.
static int make_room(gif_lzw *z, int count) {
    int keep = count + GIF_LZW_MAX_CODES + 8;
    if (keep < 1 << 16) keep = 1 << 16;
    int size = 2 * keep + GIF_LZW_MAX_CODES + 8;
    if (size < 1 << 20) size = 1 << 20;
    z->keep = keep;
    if (z->window_size >= size) return 0;
    uint8_t *window = realloc(z->window, (size_t)size);
    if (!window) return -1;
    z->window = window;
    z->window_size = size;
    return 0;
}

// Moves the window's last `keep` bytes to its start, when a string might
// not fit after the end: they hold every byte not yet taken (fewer than a
// line), and the last string.
static void slide(gif_lzw *z) {
    uint64_t keep = z->end - z->base;
    if (keep > (uint64_t)z->keep) keep = (uint64_t)z->keep;
    memmove(z->window, z->window + (z->end - keep - z->base), (size_t)keep);
    z->base = z->end - keep;
}

// Writes code's string at the end. A long string still in the window is
// copied from there (KwKwK: the last string plus its own first byte).
static inline void emit(gif_lzw *z, int code, int kwkwk) {
    uint8_t *dst = z->window + (z->end - z->base);
    int length = z->length[code];
    if (length <= 8) {
        uint64_t head = htole64(z->head[code]);
        memcpy(dst, &head, 8);
    } else if (kwkwk && z->prev_at >= z->base) {
        memcpy(dst, z->window + (z->prev_at - z->base), (size_t)length - 1);
        dst[length - 1] = z->first[z->prev];
    } else if (!kwkwk && z->at[code] != GIF_LZW_NOWHERE && z->at[code] >= z->base) {
        memcpy(dst, z->window + (z->at[code] - z->base), (size_t)length);
    } else {
        spell(z, code, dst);
    }
}

// Decodes one code onto the end of the window: NULL, or what is wrong.
static inline const char *step(gif_lzw *z, int min_size) {
    if (z->nbits < z->width) {
        refill(z);
        if (z->nbits < z->width) return z->read_failed ? "the image data is cut short" : "the image data ends early";
    }
    int code = (int)(z->bits & ((1u << z->width) - 1));
    z->bits >>= z->width;
    z->nbits -= z->width;
    if (code == z->clear) {
        reset(z, min_size);
        return NULL;
    }
    if (code == z->clear + 1) return "the image data ends before its last pixel";
    int n = z->next;
    if (z->prev >= 0) {
        if (code > n) return "an LZW code that is not in the table yet";
        extend(z, code);
        emit(z, code, code == n);
        // The new entry is the last string and this one's first byte,
        // where the last string was written.
        if (n < GIF_LZW_MAX_CODES) z->at[n] = z->prev_at;
    } else {
        if (code > z->clear) return "an LZW code that is not in the table yet";
        z->window[z->end - z->base] = (uint8_t)code;
        widen(z);
    }
    z->at[code] = z->prev_at = z->end;
    z->end += z->length[code];
    z->prev = code;
    return NULL;
}

const char *gif_lzw_read(gif_lzw *z, uint8_t *restrict out, int count) {
    if (make_room(z, count) != 0) return "out of memory";
    const int min_size = __builtin_ctz((unsigned)z->clear);
    const uint64_t room = (uint64_t)z->window_size - GIF_LZW_MAX_CODES - 8;
    while (z->end - z->taken < (uint64_t)count) {
        if (z->end - z->base > room) slide(z);
        const char *problem = step(z, min_size);
        if (problem) return problem;
    }
    memcpy(out, z->window + (z->taken - z->base), (size_t)count);
    z->taken += (uint64_t)count;
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

void gif_lzw_free(gif_lzw *z) {
    free(z->window);
    z->window = NULL;
    z->window_size = 0;
}
