// libtiff behind the shim's conventions: no message printed (each handle's
// own handlers copy it into the decoder), 0 or -1 for each step, and every
// allocation libtiff makes bounded (a file of 100,000 strips or a huge
// directory is refused, not allocated). The page is read a strip, or a row
// of tiles, at a time: memory follows that band, not the page.
#include "CImageShim.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>

struct cimg_tiff {
    FILE *file;
    TIFF *tiff;
    uint32_t width, height;
    // One band of the page at a time, RGBA8 a pixel, top row first: a strip,
    // or a row of tiles. Memory follows the band, not the page.
    uint32_t *band;
    uint32_t band_rows;       // rows a band holds: rows per strip, or the tile height
    uint32_t band_first;      // the page row the band starts at
    uint32_t band_count;      // rows in the band read (the last may be short)
    int band_valid;
    uint32_t tile_width;      // tiled pages
    uint32_t *tile;
    uint8_t *raw;             // 8-bit RGB strips as coded, top row first (see plain_rgb)
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

/// Whether the page is 8-bit RGB in strips, pixels interleaved, top row
/// first: then its strips are read as they are coded (TIFFReadEncodedStrip,
/// LZW and the predictor undone), without the RGBA reader's packing and
/// turning, which took a fifth of the time of a 12-megapixel LZW page.
static int plain_rgb(struct cimg_tiff *d) {
    uint16_t photometric = 0, planar = 0, bits = 0, samples = 0, orientation = ORIENTATION_TOPLEFT;
    return !TIFFIsTiled(d->tiff) && TIFFGetField(d->tiff, TIFFTAG_PHOTOMETRIC, &photometric) &&
           photometric == PHOTOMETRIC_RGB && TIFFGetFieldDefaulted(d->tiff, TIFFTAG_PLANARCONFIG, &planar) &&
           planar == PLANARCONFIG_CONTIG && TIFFGetFieldDefaulted(d->tiff, TIFFTAG_BITSPERSAMPLE, &bits) &&
           bits == 8 && TIFFGetFieldDefaulted(d->tiff, TIFFTAG_SAMPLESPERPIXEL, &samples) && samples == 3 &&
           (!TIFFGetField(d->tiff, TIFFTAG_ORIENTATION, &orientation) || orientation == ORIENTATION_TOPLEFT);
}

int cimg_tiff_start(cimg_tiff *d, uint64_t max_band_bytes) {
    if (TIFFIsTiled(d->tiff)) {
        uint32_t tw = 0, th = 0;
        if (!TIFFGetField(d->tiff, TIFFTAG_TILEWIDTH, &tw) || !TIFFGetField(d->tiff, TIFFTAG_TILELENGTH, &th) ||
            tw == 0 || th == 0)
            return fail(d, "bad tile size");
        d->tile_width = tw;
        d->band_rows = th;
        if ((uint64_t)tw * th * 4 > max_band_bytes) return fail(d, "tiles too large to decode") - 1;
        d->tile = malloc((size_t)tw * th * 4);
        if (!d->tile) return fail(d, "out of memory");
    } else {
        uint32_t rows = 0;
        if (!TIFFGetFieldDefaulted(d->tiff, TIFFTAG_ROWSPERSTRIP, &rows) || rows == 0 || rows > d->height)
            rows = d->height;
        d->band_rows = rows;
    }
    uint64_t bytes = (uint64_t)d->width * d->band_rows * 4;
    // A page in one compressed strip is held whole: within the bound.
    if (bytes > max_band_bytes) return fail(d, "its strips are too large to decode") - 1;
    // Plain RGB needs only its coded strip; the rest, the RGBA reader's band.
    if (plain_rgb(d) && TIFFStripSize(d->tiff) == (tmsize_t)d->width * d->band_rows * 3)
        d->raw = malloc((size_t)d->width * d->band_rows * 3);
    else
        d->band = malloc((size_t)bytes);
    if (!d->raw && !d->band) return fail(d, "out of memory");
    return 0;
}

// The strip holding page row `first`: TIFFReadRGBAStrip leaves its rows
// bottom-up, turned here.
static int read_strip(struct cimg_tiff *d, uint32_t first, uint32_t count) {
    if (!TIFFReadRGBAStripExt(d->tiff, first, d->band, 1)) return fail(d, "damaged image data");
    for (uint32_t top = 0, bottom = count - 1; top < bottom; top++, bottom--) {
        uint32_t *a = d->band + (size_t)top * d->width, *b = d->band + (size_t)bottom * d->width;
        for (uint32_t x = 0; x < d->width; x++) {
            uint32_t t = a[x];
            a[x] = b[x];
            b[x] = t;
        }
    }
    return 0;
}

// A row of tiles, as tiff2rgba reads them (libtiff 4.5's whole-image reader
// refuses some tiled files: "Invalid tile byte count"); each tile's rows
// come bottom-up.
static int read_tiles(struct cimg_tiff *d, uint32_t first, uint32_t count) {
    uint32_t tw = d->tile_width, th = d->band_rows;
    for (uint32_t col = 0; col < d->width; col += tw) {
        if (!TIFFReadRGBATileExt(d->tiff, col, first, d->tile, 1)) return fail(d, "damaged tile");
        uint32_t cols = d->width - col < tw ? d->width - col : tw;
        for (uint32_t y = 0; y < count; y++)
            memcpy(d->band + (size_t)y * d->width + col, d->tile + (size_t)(th - 1 - y) * tw, (size_t)cols * 4);
    }
    return 0;
}

/// A strip of plain RGB as coded: its rows in `raw`, top row first.
static int read_raw(struct cimg_tiff *d, uint32_t first, uint32_t count) {
    tmsize_t want = (tmsize_t)d->width * count * 3;
    tmsize_t got = TIFFReadEncodedStrip(d->tiff, TIFFComputeStrip(d->tiff, first, 0), d->raw, want);
    return got == want ? 0 : fail(d, "damaged image data");
}

/// The band holding page row `y`, read unless it is the one held.
static int load_band(struct cimg_tiff *d, uint32_t y) {
    if (d->band_valid && y >= d->band_first && y < d->band_first + d->band_count) return 0;
    uint32_t first = y - y % d->band_rows;
    uint32_t count = d->height - first < d->band_rows ? d->height - first : d->band_rows;
    d->band_valid = 0;
    int read = d->raw ? read_raw(d, first, count) : d->tile ? read_tiles(d, first, count) : read_strip(d, first, count);
    if (read != 0) return -1;
    d->band_first = first;
    d->band_count = count;
    d->band_valid = 1;
    return 0;
}

int cimg_tiff_read_row(cimg_tiff *d, uint8_t *row, uint32_t y) {
    if ((!d->band && !d->raw) || y >= d->height) return fail(d, "no such row");
    if (load_band(d, y) != 0) return -1;
    if (d->raw) {
        const uint8_t *in = d->raw + (size_t)(y - d->band_first) * d->width * 3;
        for (uint32_t x = 0; x < d->width; x++, in += 3, row += 4) {
            row[0] = in[0], row[1] = in[1], row[2] = in[2], row[3] = 255;
        }
        return 0;
    }
    // Each pixel is a uint32 with red in its low byte (TIFFGetR).
    const uint32_t *pixels = d->band + (size_t)(y - d->band_first) * d->width;
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
    free(d->band);
    free(d->tile);
    free(d->raw);
    free(d);
}

int cimg_tiff_icc(cimg_tiff *d, const uint8_t **profile, size_t *length) {
    uint32_t count = 0;
    void *data = NULL;
    if (!d->tiff || !TIFFGetField(d->tiff, TIFFTAG_ICCPROFILE, &count, &data) || !data || count == 0) return -1;
    // A grey profile on a colour picture would make it grey: not applied.
    uint16_t photometric = 0;
    TIFFGetField(d->tiff, TIFFTAG_PHOTOMETRIC, &photometric);
    if (cimg_icc_is_grey(data, count) && photometric != PHOTOMETRIC_MINISBLACK && photometric != PHOTOMETRIC_MINISWHITE)
        return -1;
    *profile = data;
    *length = count;
    return 0;
}
