// GIF's LZW image data, decoded a line at a time. Private to the shim.
#ifndef CIMG_GIF_LZW_H
#define CIMG_GIF_LZW_H
#include <stdint.h>

enum { GIF_LZW_MAX_CODES = 4096 };

/// Hands the decoder the next data sub-block: returns its length (1-255)
/// with `*block` set, 0 at the image's terminator, -1 when it cannot be read.
typedef int (*gif_lzw_next_block)(void *source, const uint8_t **block);

/// The decoder's state between lines. A string that runs past a line's end
/// waits in `spill` for the next line: memory is the table and one string,
/// whatever the frame's size.
typedef struct gif_lzw {
    uint16_t prefix[GIF_LZW_MAX_CODES];   ///< the code this one extends
    uint16_t length[GIF_LZW_MAX_CODES];   ///< bytes in the code's string
    uint8_t suffix[GIF_LZW_MAX_CODES];    ///< the string's last byte
    uint8_t first[GIF_LZW_MAX_CODES];     ///< the string's first byte
    uint8_t spill[GIF_LZW_MAX_CODES];
    int spill_at, spill_end;
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

/// Starts an image whose minimum code size is `min_size` (1-8; 0 when
/// the file says more than 8 or less than 1, which fails).
int gif_lzw_start(gif_lzw *z, int min_size, gif_lzw_next_block next_block, void *source);
/// Fills `out` with the next `count` indices: 0, or a static message
/// naming what is wrong with the data.
const char *gif_lzw_read(gif_lzw *z, uint8_t *out, int count);
/// Reads the rest of the image's sub-blocks, through the terminator, so
/// that the next record can be read: 0, or -1 when they cannot be.
int gif_lzw_drain(gif_lzw *z);

#endif
