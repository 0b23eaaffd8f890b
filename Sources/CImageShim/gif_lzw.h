// GIF's LZW image data, decoded a line at a time. Private to the shim.
#ifndef CIMG_GIF_LZW_H
#define CIMG_GIF_LZW_H
#include <stdint.h>

enum { GIF_LZW_MAX_CODES = 4096 };
#define GIF_LZW_NOWHERE UINT64_MAX

/// Hands the decoder the next data sub-block: returns its length (1-255)
/// with `*block` set, 0 at the image's terminator, -1 when it cannot be read.
typedef int (*gif_lzw_next_block)(void *source, const uint8_t **block);

/// The decoder's state between lines. Strings are written whole into a
/// window of the image's last decoded bytes, lines taken from it: a long
/// string is copied from where it was last written (often the line
/// above). Memory is the table and a window of 1 MiB, or a few lines.
typedef struct gif_lzw {
    uint16_t prefix[GIF_LZW_MAX_CODES];   ///< the code this one extends
    uint16_t length[GIF_LZW_MAX_CODES];   ///< bytes in the code's string
    uint8_t suffix[GIF_LZW_MAX_CODES];    ///< the string's last byte
    uint8_t first[GIF_LZW_MAX_CODES];     ///< the string's first byte
    uint64_t head[GIF_LZW_MAX_CODES];     ///< its first 8 bytes, little-endian
    /// Where in the image's bytes the code's string was last written whole
    /// (GIF_LZW_NOWHERE: not since it was made), still in the window
    /// when at least `base`.
    uint64_t at[GIF_LZW_MAX_CODES];
    uint8_t *window;
    uint64_t base;                        ///< the image byte window[0] holds
    uint64_t end;                         ///< bytes decoded
    uint64_t taken;                       ///< bytes handed out as lines
    uint64_t prev_at;                     ///< where the last string was written
    int window_size;
    int keep;                             ///< bytes a slide keeps
    uint8_t in[4096 + 8];                 ///< sub-blocks gathered, +8 for 64-bit loads
    int in_at, in_end;
    uint64_t bits;
    int nbits;
    int clear, width, next, prev;
    int blocks_ended;                     ///< no sub-block is left to read
    int read_failed;                      ///< ...because one could not be read
    gif_lzw_next_block next_block;
    void *source;
} gif_lzw;

/// Starts an image whose minimum code size is `min_size`: 0, or -1 when
/// it is outside 1-8 (the image can then still be drained).
int gif_lzw_start(gif_lzw *z, int min_size, gif_lzw_next_block next_block, void *source);
/// Fills `out` with the next `count` indices: NULL, or a static message
/// naming what is wrong with the data.
const char *gif_lzw_read(gif_lzw *z, uint8_t *out, int count);
/// Reads the rest of the image's sub-blocks, through the terminator, so
/// that the next record can be read: 0, or -1 when they cannot be.
int gif_lzw_drain(gif_lzw *z);
/// Frees the window (not `z`). `z` must start out zeroed.
void gif_lzw_free(gif_lzw *z);

#endif
