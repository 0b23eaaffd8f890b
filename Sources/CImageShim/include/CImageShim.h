#ifndef URLCACHE_CIMAGESHIM_H
#define URLCACHE_CIMAGESHIM_H
// Typed, longjmp-free decode steps over libpng and libjpeg-turbo.
//
// Both libraries report errors by longjmp and print warnings to stderr by
// default. Every call below does its own setjmp, installs handlers that copy
// the message into the decoder instead of printing it, and returns 0 on
// success or -1 with the message in *_message(). No longjmp ever crosses a
// Swift frame and nothing is ever written to the terminal.
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct cimg_png cimg_png;

/// Starts a PNG decoder reading from `file` (a file or fmemopen stream that
/// the caller closes after cimg_png_close). NULL only when memory runs out.
cimg_png *cimg_png_open(FILE *file);
/// Reads the header and sets up RGBA8 output (16-bit samples scaled with
/// rounding, palettes and tRNS expanded, gray widened to RGB).
int cimg_png_read_header(cimg_png *d, uint32_t *width, uint32_t *height, int *interlaced);
/// Reads the next row: width*4 bytes, or for an interlaced image the next
/// row of the current Adam7 pass (that pass's width*4 bytes), passes in order.
int cimg_png_read_row(cimg_png *d, uint8_t *row);
/// Reads to the end of the image data, so that a corrupt tail is reported.
int cimg_png_finish(cimg_png *d);
const char *cimg_png_message(const cimg_png *d);
void cimg_png_close(cimg_png *d);

typedef struct cimg_jpeg cimg_jpeg;

/// Starts a JPEG decoder reading from `file`, as cimg_png_open does.
cimg_jpeg *cimg_jpeg_open(FILE *file);
/// Reads the header and the EXIF Orientation (1 when absent or unreadable).
int cimg_jpeg_read_header(cimg_jpeg *d, uint32_t *width, uint32_t *height, int *orientation);
/// Starts decoding at scale_num/8 of the full size (libjpeg-turbo's DCT
/// scaling), with RGB8 output whatever the colour space (CMYK and YCCK
/// converted here, Adobe's inverted form included).
int cimg_jpeg_start(cimg_jpeg *d, unsigned scale_num, uint32_t *out_width, uint32_t *out_height);
/// Reads the next output row: out_width*3 bytes.
int cimg_jpeg_read_row(cimg_jpeg *d, uint8_t *row);
/// 1 once the data ended before the image did: the rest of the rows are
/// libjpeg's gray fill, and the picture is shown partially.
int cimg_jpeg_truncated(const cimg_jpeg *d);
const char *cimg_jpeg_message(const cimg_jpeg *d);
void cimg_jpeg_close(cimg_jpeg *d);

// Encoding, for the terminal graphics protocols.

/// RGB8 rows (width*3 bytes each) as a PNG in memory, zlib level `level`.
/// On success *out is malloc'ed (free with cimg_free). 0 or -1.
int cimg_png_encode_rgb(const uint8_t *rgb, uint32_t width, uint32_t height, int level,
                        uint8_t **out, size_t *out_count);
/// `bytes` as one zlib stream (RFC 1950), as kitty's o=z reads it. 0 or -1.
int cimg_deflate(const uint8_t *bytes, size_t count, int level, uint8_t **out, size_t *out_count);
void cimg_free(void *p);

#endif
