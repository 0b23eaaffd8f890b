// libtiff behind the shim's conventions: no message printed (each handle's
// own handlers copy it into the decoder), 0 or -1 for each step, and every
// allocation libtiff makes bounded (a file of 100,000 strips or a huge
// directory is refused, not allocated).
#include "CImageShim.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>

struct cimg_tiff {
    FILE *file;
    TIFF *tiff;
    uint32_t width, height;
    uint32_t *raster;   // the page, RGBA8 a pixel, top row first
    char message[200];
};

static int tiff_error(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif; (void)module;
    struct cimg_tiff *d = user;
    if (d && d->message[0] == 0) vsnprintf(d->message, sizeof d->message, fmt, ap);
    return 1;   // handled: libtiff prints nothing
}

static int tiff_warning(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif; (void)user; (void)module; (void)fmt; (void)ap;
    return 1;
}

static tmsize_t read_proc(thandle_t h, void *buf, tmsize_t size) {
    return (tmsize_t)fread(buf, 1, (size_t)size, ((struct cimg_tiff *)h)->file);
}
static tmsize_t write_proc(thandle_t h, void *buf, tmsize_t size) { (void)h; (void)buf; (void)size; return 0; }
static toff_t seek_proc(thandle_t h, toff_t off, int whence) {
    FILE *f = ((struct cimg_tiff *)h)->file;
    if (off > (toff_t)INT64_MAX || fseeko(f, (off_t)off, whence) != 0) return (toff_t)-1;
    off_t at = ftello(f);
    return at < 0 ? (toff_t)-1 : (toff_t)at;
}
static int close_proc(thandle_t h) { (void)h; return 0; }
static toff_t size_proc(thandle_t h) {
    FILE *f = ((struct cimg_tiff *)h)->file;
    off_t here = ftello(f);
    if (here < 0 || fseeko(f, 0, SEEK_END) != 0) return 0;
    off_t end = ftello(f);
    fseeko(f, here, SEEK_SET);
    return end < 0 ? 0 : (toff_t)end;
}
static int map_proc(thandle_t h, void **base, toff_t *size) { (void)h; (void)base; (void)size; return 0; }
static void unmap_proc(thandle_t h, void *base, toff_t size) { (void)h; (void)base; (void)size; }

static int fail(struct cimg_tiff *d, const char *message) {
    if (d->message[0] == 0) snprintf(d->message, sizeof d->message, "%s", message);
    return -1;
}

cimg_tiff *cimg_tiff_open(FILE *file) {
    struct cimg_tiff *d = calloc(1, sizeof *d);
    if (d) d->file = file;
    return d;
}

int cimg_tiff_read_header(cimg_tiff *d, uint32_t *width, uint32_t *height) {
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (!options) return fail(d, "out of memory");
    TIFFOpenOptionsSetErrorHandlerExtR(options, tiff_error, d);
    TIFFOpenOptionsSetWarningHandlerExtR(options, tiff_warning, d);
    // No single allocation past 256 MiB while the directories are read.
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, (tmsize_t)256 << 20);
    // "r": the first page only; "m": no memory mapping (we hand it a FILE).
    d->tiff = TIFFClientOpenExt("tiff", "rm", (thandle_t)d, read_proc, write_proc, seek_proc, close_proc,
                                size_proc, map_proc, unmap_proc, options);
    TIFFOpenOptionsFree(options);
    if (!d->tiff) return fail(d, "not a TIFF libtiff reads");
    char why[1024] = "";
    if (!TIFFRGBAImageOK(d->tiff, why)) return fail(d, why[0] ? why : "a TIFF of a kind libtiff cannot show");
    if (!TIFFGetField(d->tiff, TIFFTAG_IMAGEWIDTH, &d->width) ||
        !TIFFGetField(d->tiff, TIFFTAG_IMAGELENGTH, &d->height) || d->width == 0 || d->height == 0)
        return fail(d, "no image size");
    *width = d->width;
    *height = d->height;
    return 0;
}

// A tiled page, a tile at a time, as tiff2rgba reads one: libtiff 4.5's
// whole-image reader refuses some tiled files ("Invalid tile byte count").
// TIFFReadRGBATile leaves each tile's rows bottom-up.
static int decode_tiles(struct cimg_tiff *d, uint64_t max_bytes) {
    uint32_t tw = 0, th = 0;
    if (!TIFFGetField(d->tiff, TIFFTAG_TILEWIDTH, &tw) || !TIFFGetField(d->tiff, TIFFTAG_TILELENGTH, &th) ||
        tw == 0 || th == 0 || (uint64_t)tw * th * 4 > max_bytes)
        return fail(d, "bad tile size");
    uint32_t *tile = malloc((size_t)tw * th * 4);
    if (!tile) return fail(d, "out of memory");
    for (uint32_t row = 0; row < d->height; row += th) {
        for (uint32_t col = 0; col < d->width; col += tw) {
            if (!TIFFReadRGBATileExt(d->tiff, col, row, tile, 1)) {
                free(tile);
                return fail(d, "damaged tile");
            }
            uint32_t rows = d->height - row < th ? d->height - row : th;
            uint32_t cols = d->width - col < tw ? d->width - col : tw;
            for (uint32_t y = 0; y < rows; y++)
                memcpy(d->raster + (size_t)(row + y) * d->width + col, tile + (size_t)(th - 1 - y) * tw,
                       (size_t)cols * 4);
        }
    }
    free(tile);
    return 0;
}

int cimg_tiff_decode(cimg_tiff *d, uint64_t max_bytes) {
    uint64_t bytes = (uint64_t)d->width * d->height * 4;
    if (bytes > max_bytes) return fail(d, "too large to decode");
    d->raster = malloc((size_t)bytes);
    if (!d->raster) return fail(d, "out of memory");
    if (TIFFIsTiled(d->tiff)) return decode_tiles(d, max_bytes);
    TIFFRGBAImage image;
    char why[1024] = "";
    if (!TIFFRGBAImageBegin(&image, d->tiff, 0, why)) return fail(d, why[0] ? why : "cannot read this TIFF");
    image.req_orientation = ORIENTATION_TOPLEFT;
    int ok = TIFFRGBAImageGet(&image, d->raster, d->width, d->height);
    TIFFRGBAImageEnd(&image);
    if (!ok) return fail(d, "damaged image data");
    return 0;
}

int cimg_tiff_read_row(cimg_tiff *d, uint8_t *row, uint32_t y) {
    if (!d->raster || y >= d->height) return -1;
    // Each pixel is a uint32 with red in its low byte (TIFFGetR): on a
    // little-endian machine its bytes are r, g, b, a.
    const uint32_t *pixels = d->raster + (size_t)y * d->width;
    for (uint32_t x = 0; x < d->width; x++) {
        uint32_t p = pixels[x];
        row[4 * x] = (uint8_t)TIFFGetR(p);
        row[4 * x + 1] = (uint8_t)TIFFGetG(p);
        row[4 * x + 2] = (uint8_t)TIFFGetB(p);
        row[4 * x + 3] = (uint8_t)TIFFGetA(p);
    }
    return 0;
}

const char *cimg_tiff_message(const cimg_tiff *d) { return d->message[0] ? d->message : "unknown error"; }

void cimg_tiff_close(cimg_tiff *d) {
    if (!d) return;
    if (d->tiff) TIFFClose(d->tiff);
    free(d->raster);
    free(d);
}
