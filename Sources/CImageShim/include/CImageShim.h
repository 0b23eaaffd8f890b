#ifndef URLCACHE_CIMAGESHIM_H
#define URLCACHE_CIMAGESHIM_H
// Typed, longjmp-free decode steps over libpng, libjpeg-turbo, giflib,
// libwebp, libavif and libtiff.
//
// libpng and libjpeg report errors by longjmp and print warnings to stderr by
// default. Every call below does its own setjmp, installs handlers that copy
// the message into the decoder instead of printing it, and returns 0 on
// success or -1 with the message in *_message(). No longjmp ever crosses a
// Swift frame and nothing is ever written to the terminal.
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cimg_color.h"

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

/// The PNG's embedded ICC profile (iCCP), owned by the decoder: 0 and
/// a pointer and length, or -1 when it has none. After read_header.
int cimg_png_icc(cimg_png *d, const uint8_t **profile, size_t *length);

/// Reads the rest of `file` into a malloc'd buffer (*data, *size): 0; 1 when
/// it goes past `max_bytes` (what was read is kept); -1 when memory runs
/// out (*data NULL). For the libraries that decode from memory.
int cimg_read_whole(FILE *file, size_t max_bytes, uint8_t **data, size_t *size);

#define CIMG_TRANSFER_PQ 16
#define CIMG_TRANSFER_HLG 18
/// HDR pixels (RGBA, 16 bits a sample, coded with `transfer`: PQ or HLG;
/// BT.2020 primaries when `bt2020`, else BT.709) to sRGB RGBA8, tone-mapped:
/// light up to 75% of SDR white (203 cd/m²) kept, brighter rolled off.
void cimg_hdr_to_srgb8(const uint16_t *in, uint8_t *out, size_t count, int transfer, int bt2020);

/// zlib's CRC-32 (PNG's chunk CRC) of `count` bytes, continuing `crc`
/// (0 to start).
uint32_t cimg_crc32(uint32_t crc, const uint8_t *bytes, size_t count);

typedef struct cimg_heif cimg_heif;

/// Whether libheif could be opened (0) or not (-1, the reason in
/// cimg_heif_load_error): looked for at the first HEIF.
int cimg_heif_load(void);
const char *cimg_heif_load_error(void);
/// The id of the HEVC decoder libheif picks first ("" when none): ours,
/// libde265 with two workers, once cimg_heif_load has registered it.
const char *cimg_heif_hevc_decoder(void);
/// How many pictures that decoder has turned from YCbCr into RGB itself.
unsigned long cimg_hevc_rgb_pictures(void);
/// Reads `file` whole (up to `max_bytes`; libheif reads from memory). NULL
/// when libheif is missing or memory runs out.
cimg_heif *cimg_heif_open(FILE *file, size_t max_bytes);
/// How many items the file holds and how many images its primary item
/// joins (a grid's tiles; 0 for none), read from its boxes by the shim
/// before libheif parses anything.
int cimg_heif_count(const cimg_heif *d, uint32_t *items, uint32_t *tiles);
/// Parses the file, and gives the primary image's size (a grid's whole
/// size); libheif refuses a side over `max_side`.
int cimg_heif_read_header(cimg_heif *d, int max_side, uint32_t *width, uint32_t *height);
/// Decodes the primary image to RGBA8, its irot, imir and clap applied:
/// the size decoded, which the transformations may change.
int cimg_heif_decode(cimg_heif *d, uint32_t *width, uint32_t *height);
/// Row `y` of the decoded image (width*4 bytes).
const uint8_t *cimg_heif_row(cimg_heif *d, uint32_t y);
/// The image's ICC profile (prof or rICC), owned by the decoder: 0, or -1.
int cimg_heif_icc(cimg_heif *d, const uint8_t **profile, size_t *length);
const char *cimg_heif_message(const cimg_heif *d);
void cimg_heif_close(cimg_heif *d);

/// stderr's stdio lock, which a decoder holds while it points fd 2 at
/// /dev/null to silence a library (libjxl 0.7 prints its failures): a
/// writer to stderr takes it, so that its line is not lost meanwhile.
void cimg_stderr_lock(void);
void cimg_stderr_unlock(void);

typedef struct cimg_jxl cimg_jxl;

/// Whether libjxl could be opened (0) or not (-1, the reason in
/// cimg_jxl_load_error): looked for at the first JPEG XL.
int cimg_jxl_load(void);
const char *cimg_jxl_load_error(void);
/// Reads `file` whole (up to `max_bytes`). NULL when libjxl is missing or
/// memory runs out.
cimg_jxl *cimg_jxl_open(FILE *file, size_t max_bytes);
/// Reads the header: the canvas's size, whether it animates and its loops
/// (0: forever). Pixels come as sRGB when the picture is XYB-coded.
int cimg_jxl_read_header(cimg_jxl *d, uint32_t *width, uint32_t *height, int *animated, uint32_t *loops);
/// Decodes the next frame onto the canvas (RGBA8, coalesced by libjxl):
/// 0 and its duration, 1 after the last, -1 on damage.
int cimg_jxl_next_frame(cimg_jxl *d, double *seconds);
/// Row `y` of the canvas.
const uint8_t *cimg_jxl_row(const cimg_jxl *d, uint32_t y);
/// Back to before the first frame.
int cimg_jxl_rewind(cimg_jxl *d);
/// The ICC profile of the pixels when they are not sRGB: 0, or -1.
int cimg_jxl_icc(cimg_jxl *d, const uint8_t **profile, size_t *length);
const char *cimg_jxl_message(const cimg_jxl *d);
void cimg_jxl_close(cimg_jxl *d);

typedef struct cimg_svg cimg_svg;

/// Whether librsvg and cairo could be opened (0) or not (-1, the reason in
/// cimg_svg_load_error): looked for at the first SVG.
int cimg_svg_load(void);
const char *cimg_svg_load_error(void);
/// Parses the document in `data` with no base URL, so that no href outside
/// it is ever resolved. NULL when librsvg is missing or memory runs out;
/// a document that does not parse says why in cimg_svg_message.
cimg_svg *cimg_svg_open(const uint8_t *data, size_t size);
/// Its size in pixels (width and height, else its viewBox's).
int cimg_svg_read_header(cimg_svg *d, double *width, double *height);
/// Renders the document's rectangle (x, y, w, h), in its own pixels, at
/// exactly out_width x out_height, stretched if that is another shape:
/// RGBA8, straight alpha.
int cimg_svg_render(cimg_svg *d, double x, double y, double w, double h, int out_width, int out_height);
const uint8_t *cimg_svg_row(const cimg_svg *d, int y);
const char *cimg_svg_message(const cimg_svg *d);
void cimg_svg_close(cimg_svg *d);

typedef struct cimg_tiff cimg_tiff;

/// Whether libtiff could be opened (0) or not (-1, the reason in
/// cimg_tiff_load_error): looked for at the first TIFF.
int cimg_tiff_load(void);
const char *cimg_tiff_load_error(void);

/// Starts a TIFF decoder (libtiff) reading from `file`, as cimg_png_open
/// does: the first page, classic or BigTIFF. NULL only when memory runs out.
cimg_tiff *cimg_tiff_open(FILE *file);
/// Reads the first page's header: its size, and whether libtiff's RGBA
/// reader takes it (strips or tiles; 1 to 16 bits; grey, palette, RGB,
/// RGBA, CMYK, YCbCr, Lab).
int cimg_tiff_read_header(cimg_tiff *d, uint32_t *width, uint32_t *height);
/// Sets up the reading of the page a band at a time (a strip, or a row of
/// tiles), a band's pixels bounded by `max_band_bytes`: -2 for a band
/// past that (a page in one large compressed strip), -1 for other faults.
int cimg_tiff_start(cimg_tiff *d, uint64_t max_band_bytes);
/// Bytes a pixel of the rows, once the header is read: 3 for 8-bit RGB in
/// strips (RGB8, as coded), else 4 (RGBA8, libtiff's RGBA reader).
int cimg_tiff_channels(const cimg_tiff *d);
/// Row `y` of the page (width*channels bytes), read with its band. A page
/// of plain RGB strips is decoded on two threads, a band of strips each.
int cimg_tiff_read_row(cimg_tiff *d, uint8_t *row, uint32_t y);
const char *cimg_tiff_message(const cimg_tiff *d);
/// The page's ICC profile (tag 34675), owned by libtiff: 0, or -1.
int cimg_tiff_icc(cimg_tiff *d, const uint8_t **profile, size_t *length);
void cimg_tiff_close(cimg_tiff *d);

typedef struct cimg_jpeg cimg_jpeg;

/// Starts a JPEG decoder reading from `file`, as cimg_png_open does.
cimg_jpeg *cimg_jpeg_open(FILE *file);
/// Reads the header and the EXIF Orientation (1 when absent or unreadable).
int cimg_jpeg_read_header(cimg_jpeg *d, uint32_t *width, uint32_t *height, int *orientation);
/// Starts decoding at scale_num/8 of the full size (libjpeg-turbo's DCT
/// scaling), with RGB8 output whatever the colour space (CMYK and YCCK
/// converted here, Adobe's inverted form included).
int cimg_jpeg_start(cimg_jpeg *d, unsigned scale_num, uint32_t *out_width, uint32_t *out_height);
/// Decodes only columns [x_offset, x_offset + width) of each row and skips
/// the first skip_rows rows (libjpeg-turbo's jpeg_crop_scanline and
/// jpeg_skip_scanlines): the columns widen to whole iMCUs, and x_offset and
/// width come back as the rows will hold them. Call once, after start.
int cimg_jpeg_crop(cimg_jpeg *d, uint32_t *x_offset, uint32_t *width, uint32_t skip_rows);
/// Reads the next output row: out_width*3 bytes (the cropped width after
/// cimg_jpeg_crop).
int cimg_jpeg_read_row(cimg_jpeg *d, uint8_t *row);
/// 1 once the data ended before the image did: the rest of the rows are
/// libjpeg's gray fill, and the picture is shown partially.
int cimg_jpeg_truncated(const cimg_jpeg *d);
/// The JPEG's ICC profile (its APP2 ICC_PROFILE chunks joined), owned by
/// the decoder: 0 and a pointer and length, or -1. After read_header.
int cimg_jpeg_icc(cimg_jpeg *d, const uint8_t **profile, size_t *length);
const char *cimg_jpeg_message(const cimg_jpeg *d);
void cimg_jpeg_close(cimg_jpeg *d);

typedef struct cimg_gif cimg_gif;

/// One GIF image descriptor with the graphics control that came before it.
typedef struct cimg_gif_frame {
    uint32_t left, top, width, height;
    int interlaced;
    int transparent;   ///< palette index drawn as transparent, -1 for none
    int disposal;      ///< 0 unspecified, 1 keep, 2 restore to background, 3 restore to previous
    int delay_cs;      ///< hundredths of a second
} cimg_gif_frame;

/// Starts a GIF decoder reading from `file`, as cimg_png_open does.
cimg_gif *cimg_gif_open(FILE *file);
/// Reads the logical screen's size.
int cimg_gif_read_header(cimg_gif *d, uint32_t *width, uint32_t *height);
/// Reads records up to the next image: 0 with `frame` filled, 1 at the
/// trailer, -1 on damage. Every line of a frame must be read before the next.
int cimg_gif_next_frame(cimg_gif *d, cimg_gif_frame *frame);
/// The current frame's palette (its own, else the global one) as RGB8
/// triples; returns how many entries, 0 when there is none.
int cimg_gif_palette(const cimg_gif *d, uint8_t rgb[768]);
/// The next line of palette indices (`count` = the frame's width), in
/// stored order (interlaced frames: their passes' order).
int cimg_gif_read_line(cimg_gif *d, uint8_t *indices, uint32_t count);
/// Skips the current frame's image data without decoding it (instead of
/// reading its lines).
int cimg_gif_skip_image(cimg_gif *d);
/// The NETSCAPE2.0 loop count seen so far: 0 forever, -1 when absent.
int cimg_gif_loop_count(const cimg_gif *d);
const char *cimg_gif_message(const cimg_gif *d);
void cimg_gif_close(cimg_gif *d);

typedef struct cimg_webp cimg_webp;

/// Starts a WebP decoder reading from `file`, as cimg_png_open does.
cimg_webp *cimg_webp_open(FILE *file);
/// Reads as much of the head as the features need.
int cimg_webp_read_header(cimg_webp *d, uint32_t *width, uint32_t *height, int *has_alpha, int *animated);
/// Starts the incremental decoding of a still, scaled by libwebp to
/// out_width × out_height when smaller, as RGBA8 (channels 4) or RGB8 (3).
/// With a crop (crop_width > 0), that stored rectangle only (crop_x and
/// crop_y even), cropped before it is scaled.
int cimg_webp_start(cimg_webp *d, uint32_t out_width, uint32_t out_height, int channels,
                    uint32_t crop_x, uint32_t crop_y, uint32_t crop_width, uint32_t crop_height);
/// Reads row `y` (rows in order), reading the file as needed: 0, 1 when
/// the file ended before that row, -1 on damage.
int cimg_webp_read_row(cimg_webp *d, uint8_t *row, uint32_t y);
/// Reads the rest of the file for an animation: 0 or -1.
int cimg_webp_animation_start(cimg_webp *d, uint32_t *frames, int *loop_count);
/// The next composed canvas (RGBA8, canvas width × height, owned by the
/// decoder until the next call) and its end time: 0, 1 after the last, -1.
int cimg_webp_animation_next(cimg_webp *d, const uint8_t **canvas, int *timestamp_ms);
/// Back to before the first frame, for the next loop.
void cimg_webp_animation_rewind(cimg_webp *d);
const char *cimg_webp_message(const cimg_webp *d);
void cimg_webp_close(cimg_webp *d);

typedef struct cimg_avif cimg_avif;

/// What the header says: the size every frame must have, how many frames.
typedef struct cimg_avif_info {
    uint32_t width, height, frames;
    int orientation;   ///< irot/imir as EXIF's 1-8
} cimg_avif_info;

/// Starts an AVIF decoder reading from `file`, as cimg_png_open does.
/// Opens libavif once (it is not linked: see avif_shim.c): 0, or -1 with
/// cimg_avif_load_error saying why.
int cimg_avif_load(void);
const char *cimg_avif_load_error(void);
/// NULL when libavif cannot be loaded or memory runs out.
cimg_avif *cimg_avif_open(FILE *file);
/// Reads the whole file and parses its boxes; libavif refuses images
/// over `max_pixels` or `max_side` itself.
int cimg_avif_read_header(cimg_avif *d, uint32_t max_pixels, uint32_t max_side, cimg_avif_info *info);
/// Decodes the next image to RGBA8: 0, 1 after the last, -1 on damage.
int cimg_avif_next_frame(cimg_avif *d, double *duration);
/// Back to before the first image, for the next loop.
int cimg_avif_rewind(cimg_avif *d);
/// Row `y` of the last decoded image (width*4 bytes), NULL before one.
const uint8_t *cimg_avif_row(const cimg_avif *d, uint32_t y);
const char *cimg_avif_message(const cimg_avif *d);
/// The image's ICC profile (colr prof), owned by libavif: 0, or -1. After read_header.
int cimg_avif_icc(cimg_avif *d, const uint8_t **profile, size_t *length);
void cimg_avif_close(cimg_avif *d);

// Encoding, for the terminal graphics protocols.

/// RGB8 rows (width*3 bytes each) as a PNG in memory, zlib level `level`.
/// On success *out is malloc'ed (free with cimg_free). 0 or -1.
int cimg_png_encode_rgb(const uint8_t *rgb, uint32_t width, uint32_t height, int level,
                        uint8_t **out, size_t *out_count);
/// `bytes` as one zlib stream (RFC 1950), as kitty's o=z reads it. 0 or -1.
int cimg_deflate(const uint8_t *bytes, size_t count, int level, uint8_t **out, size_t *out_count);
void cimg_free(void *p);

// Memory.

/// Every thread allocates from one heap (mallopt's M_ARENA_MAX, a macro
/// Swift cannot see). 1 on success, 0 if glibc refused.
int cimg_one_heap(void);

#endif
