#include "CImageShim.h"
#include <png.h>
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

struct cimg_png {
    png_structp png;
    png_infop info;
    FILE *file;
    uint32_t width, height;
    uint8_t *coded;  // a profile made from cHRM and gAMA
    size_t coded_size;
    char message[256];
};

static void on_error(png_structp png, png_const_charp msg) {
    cimg_png *d = (cimg_png *)png_get_error_ptr(png);
    snprintf(d->message, sizeof d->message, "%s", msg ? msg : "unknown libpng error");
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg) {
    (void)png; (void)msg;   // never printed: the terminal belongs to the screen
}

static void on_read(png_structp png, png_bytep out, size_t count) {
    cimg_png *d = (cimg_png *)png_get_io_ptr(png);
    if (fread(out, 1, count, d->file) != count) {
        png_error(png, ferror(d->file) ? "read error" : "file is truncated");
    }
}

cimg_png *cimg_png_open(FILE *file) {
    cimg_png *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->file = file;
    d->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, d, on_error, on_warning);
    if (d->png) d->info = png_create_info_struct(d->png);
    if (!d->png || !d->info) {
        snprintf(d->message, sizeof d->message, "out of memory");
        return d;
    }
    png_set_read_fn(d->png, d, on_read);
#ifdef PNG_IGNORE_ADLER32
    // Every chunk's CRC is still checked, IDAT's included; the zlib stream's
    // own Adler-32 repeats that protection and costs 2-3% of the decode.
    png_set_option(d->png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    return d;
}

int cimg_png_read_header(cimg_png *d, uint32_t *width, uint32_t *height, int *interlaced) {
    if (!d->png || !d->info) return -1;
    if (setjmp(png_jmpbuf(d->png))) return -1;
    png_byte sig[8];
    if (fread(sig, 1, 8, d->file) != 8 || png_sig_cmp(sig, 0, 8) != 0) {
        snprintf(d->message, sizeof d->message, "bad PNG signature");
        return -1;
    }
    png_set_sig_bytes(d->png, 8);
    // Larger images are refused by the caller before any pixel buffer exists;
    // these limits only keep libpng from allocating for absurd headers.
    png_set_user_limits(d->png, 1000000, 1000000);
    png_set_chunk_malloc_max(d->png, 16u * 1024 * 1024);
    // Ancillary chunks the picture does not need are skipped unread: libpng
    // 1.6.39 allocates an iTXt chunk's declared length (found by fuzzing: a
    // 716-byte file asked for 1.2 GB) whatever chunk_malloc_max says. tRNS,
    // which transparency needs, and iCCP, which colour management needs
    // (its profile held to chunk_malloc_max), and cHRM, gAMA and sRGB,
    // which say the same in fixed-size chunks, are not in the list.
    static const png_byte unused[] =
        "bKGD\0eXIf\0hIST\0iTXt\0oFFs\0pCAL\0pHYs\0"
        "sBIT\0sCAL\0sPLT\0tEXt\0tIME\0zTXt";
    png_set_keep_unknown_chunks(d->png, PNG_HANDLE_CHUNK_NEVER, NULL, 0);
    png_set_keep_unknown_chunks(d->png, PNG_HANDLE_CHUNK_NEVER, unused, (int)(sizeof unused / 5));
    png_read_info(d->png, d->info);
    png_uint_32 w, h;
    int depth, color, ilace;
    png_get_IHDR(d->png, d->info, &w, &h, &depth, &color, &ilace, NULL, NULL);
    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(d->png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(d->png);
    if (png_get_valid(d->png, d->info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(d->png);
    if (depth == 16) png_set_scale_16(d->png);
    if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(d->png);
    png_set_filler(d->png, 0xff, PNG_FILLER_AFTER);
    // No png_set_interlace_handling: an interlaced image then arrives as its
    // seven Adam7 passes' rows, which the caller places itself, so no
    // full-size buffer is ever needed.
    png_read_update_info(d->png, d->info);
    if (png_get_rowbytes(d->png, d->info) != (size_t)w * 4) {
        snprintf(d->message, sizeof d->message, "unexpected PNG row layout");
        return -1;
    }
    d->width = w;
    d->height = h;
    *width = w;
    *height = h;
    *interlaced = ilace != PNG_INTERLACE_NONE;
    return 0;
}

int cimg_png_read_row(cimg_png *d, uint8_t *row) {
    if (setjmp(png_jmpbuf(d->png))) return -1;
    png_read_row(d->png, row, NULL);
    return 0;
}

int cimg_png_finish(cimg_png *d) {
    if (setjmp(png_jmpbuf(d->png))) return -1;
    png_read_end(d->png, NULL);
    return 0;
}

const char *cimg_png_message(const cimg_png *d) { return d->message; }

void cimg_png_close(cimg_png *d) {
    if (!d) return;
    if (d->png) png_destroy_read_struct(&d->png, d->info ? &d->info : NULL, NULL);
    free(d->coded);
    free(d);
}

/// cHRM and gAMA as a profile, when they say something other than sRGB
/// (within what a file rounds: gAMA 45455, sRGB's primaries to 0.01).
static int coded_profile(cimg_png *d) {
    if (png_get_valid(d->png, d->info, PNG_INFO_sRGB)) return -1;
    double gamma = 0, xy[8] = {0.64, 0.33, 0.30, 0.60, 0.15, 0.06, 0.3127, 0.3290};
    int has_gamma = png_get_valid(d->png, d->info, PNG_INFO_gAMA) && png_get_gAMA(d->png, d->info, &gamma) &&
                    gamma > 0.01 && gamma < 100;
    double c[8];
    int has_chrm = png_get_valid(d->png, d->info, PNG_INFO_cHRM) &&
                   png_get_cHRM(d->png, d->info, &c[6], &c[7], &c[0], &c[1], &c[2], &c[3], &c[4], &c[5]);
    int srgb_primaries = 1;
    for (int i = 0; has_chrm && i < 8; i++) {
        if (!(c[i] > 0 && c[i] < 1)) return -1;  // no triangle: ignored, as browsers do
        if (fabs(c[i] - xy[i]) > 0.01) srgb_primaries = 0;
        xy[i] = c[i];
    }
    int srgb_gamma = !has_gamma || fabs(gamma - 1 / 2.2) < 0.01;
    if (srgb_primaries && srgb_gamma) return -1;
    // gAMA is the encoding exponent: light = V^(1/gamma).
    return cimg_icc_coded(xy, srgb_gamma ? 0 : 1 / gamma, &d->coded, &d->coded_size);
}

int cimg_png_icc(cimg_png *d, const uint8_t **profile, size_t *length) {
    png_charp name;
    int compression;
    png_bytep data;
    png_uint_32 size;
    if (png_get_iCCP(d->png, d->info, &name, &compression, &data, &size) && data && size > 0) {
        *profile = data;
        *length = size;
        return 0;
    }
    if (!d->coded && coded_profile(d) != 0) return -1;
    *profile = d->coded;
    *length = d->coded_size;
    return 0;
}
