// libtiff behind the shim's conventions: no message printed (each handle's
// own handlers copy it into the decoder), 0 or -1 for each step, and every
// allocation libtiff makes bounded (a file of 100,000 strips or a huge
// directory is refused, not allocated). The page is read a band at a time (a
// strip, strips of plain RGB for 64 rows, or a row of tiles): memory follows
// that band, not the page. Pixels read as coded, past the RGBA reader, are
// tiff_coded.c's; plain RGB's bands are decoded on two threads
// (tiff_bands.c).
#include "CImageShim.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>

#include "tiff_internal.h"

static int tiff_error(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif; (void)module;
    char *message = user;
    if (message && message[0] == 0) vsnprintf(message, 200, fmt, ap);
    return 1;   // handled: libtiff prints nothing
}

static int tiff_warning(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif; (void)user; (void)module; (void)fmt; (void)ap;
    return 1;
}

static toff_t file_size(struct reader *r) {
    if (fseeko(r->file, 0, SEEK_END) != 0) return 0;
    off_t end = ftello(r->file);
    return end < 0 ? 0 : (toff_t)end;
}

static tmsize_t read_proc(thandle_t h, void *buf, tmsize_t size) {
    struct reader *r = h;
    pthread_mutex_lock(r->lock);
    size_t got = fseeko(r->file, r->at, SEEK_SET) == 0 ? fread(buf, 1, (size_t)size, r->file) : 0;
    pthread_mutex_unlock(r->lock);
    r->at += (off_t)got;
    return (tmsize_t)got;
}
static tmsize_t write_proc(thandle_t h, void *buf, tmsize_t size) { (void)h; (void)buf; (void)size; return 0; }
static toff_t seek_proc(thandle_t h, toff_t off, int whence) {
    struct reader *r = h;
    if (off > (toff_t)INT64_MAX) return (toff_t)-1;
    off_t base = 0;
    if (whence == SEEK_CUR) base = r->at;
    if (whence == SEEK_END) {
        pthread_mutex_lock(r->lock);
        base = (off_t)file_size(r);
        pthread_mutex_unlock(r->lock);
    }
    if ((off_t)off > INT64_MAX - base) return (toff_t)-1;
    r->at = base + (off_t)off;
    return (toff_t)r->at;
}
static int close_proc(thandle_t h) { (void)h; return 0; }
static toff_t size_proc(thandle_t h) {
    struct reader *r = h;
    pthread_mutex_lock(r->lock);
    toff_t size = file_size(r);
    pthread_mutex_unlock(r->lock);
    return size;
}
static int map_proc(thandle_t h, void **base, toff_t *size) { (void)h; (void)base; (void)size; return 0; }
static void unmap_proc(thandle_t h, void *base, toff_t size) { (void)h; (void)base; (void)size; }

cimg_tiff *cimg_tiff_open(FILE *file) {
    struct cimg_tiff *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->file = file;
    pthread_mutex_init(&d->file_lock, NULL);
    off_t at = ftello(file);
    d->reader = (struct reader){file, &d->file_lock, at < 0 ? 0 : at, d->message};
    return d;
}

/// A libtiff handle on the page through `reader`, its errors into the reader's message.
TIFF *tiff_open_page(struct reader *reader) {
    TIFFOpenOptions *options = libtiff.OpenOptionsAlloc();
    if (!options) return NULL;
    libtiff.OpenOptionsSetErrorHandlerExtR(options, tiff_error, reader->message);
    libtiff.OpenOptionsSetWarningHandlerExtR(options, tiff_warning, NULL);
    // No single allocation past 256 MiB while the directories are read.
    libtiff.OpenOptionsSetMaxSingleMemAlloc(options, (tmsize_t)256 << 20);
    // "r": the first page only; "m": no memory mapping (we hand it a FILE).
    TIFF *tiff = libtiff.ClientOpenExt("tiff", "rm", (thandle_t)reader, read_proc, write_proc, seek_proc, close_proc,
                                   size_proc, map_proc, unmap_proc, options);
    libtiff.OpenOptionsFree(options);
    return tiff;
}

int cimg_tiff_read_header(cimg_tiff *d, uint32_t *width, uint32_t *height) {
    d->tiff = tiff_open_page(&d->reader);
    if (!d->tiff) return tiff_fail(d, "not a TIFF libtiff reads");
    char why[1024] = "";
    if (!libtiff.RGBAImageOK(d->tiff, why)) return tiff_fail(d, why[0] ? why : "a TIFF of a kind libtiff cannot show");
    if (!libtiff.GetField(d->tiff, TIFFTAG_IMAGEWIDTH, &d->width) ||
        !libtiff.GetField(d->tiff, TIFFTAG_IMAGELENGTH, &d->height) || d->width == 0 || d->height == 0)
        return tiff_fail(d, "no image size");
    *width = d->width;
    *height = d->height;
    uint32_t rows = 0;
    if (!libtiff.GetFieldDefaulted(d->tiff, TIFFTAG_ROWSPERSTRIP, &rows) || rows == 0 || rows > d->height) rows = d->height;
    d->plain = tiff_plain_strips(d);
    if (d->plain && libtiff.StripSize(d->tiff) != (tmsize_t)d->width * rows * d->plain) d->plain = 0;
    // CMYK that is neither read as coded strips nor as coded tiles: the
    // RGBA reader's plain inversion, then.
    if (d->cmyk && !d->plain && !tiff_coded_tiles(d)) {
        cimg_icc_close(d->cmyk);
        d->cmyk = NULL;
    }
    return 0;
}

int cimg_tiff_channels(const cimg_tiff *d) { return d->plain ? 3 : 4; }

int cimg_tiff_start(cimg_tiff *d, uint64_t max_band_bytes) {
    if (libtiff.IsTiled(d->tiff)) {
        uint32_t tw = 0, th = 0;
        if (!libtiff.GetField(d->tiff, TIFFTAG_TILEWIDTH, &tw) || !libtiff.GetField(d->tiff, TIFFTAG_TILELENGTH, &th) ||
            tw == 0 || th == 0)
            return tiff_fail(d, "bad tile size");
        d->tile_width = tw;
        d->band_rows = th;
        if ((uint64_t)tw * th * 4 > max_band_bytes) return tiff_fail(d, "tiles too large to decode") - 1;
        d->tile = malloc((size_t)tw * th * 4);
        if (!d->tile) return tiff_fail(d, "out of memory");
    } else {
        uint32_t rows = 0;
        if (!libtiff.GetFieldDefaulted(d->tiff, TIFFTAG_ROWSPERSTRIP, &rows) || rows == 0 || rows > d->height)
            rows = d->height;
        d->band_rows = rows;
    }
    uint64_t bytes = (uint64_t)d->width * d->band_rows * 4;
    // A page in one compressed strip is held whole: within the bound.
    if (bytes > max_band_bytes) return tiff_fail(d, "its strips are too large to decode") - 1;
    // Plain RGB needs only its coded strips; the rest, the RGBA reader's band.
    if (d->plain) {
        // Strips of a few rows go in bands of at least 64: the second
        // decoder is handed a band at a time.
        uint32_t strips = (64 + d->band_rows - 1) / d->band_rows;
        while (strips > 1 && (uint64_t)d->width * d->band_rows * strips * d->plain > max_band_bytes / 2) strips--;
        d->band_rows *= strips;
        if (d->band_rows > d->height) d->band_rows = d->height;
        d->raw = malloc((size_t)d->width * d->band_rows * d->plain);
        if (d->raw && d->height > d->band_rows) tiff_start_helper(d);
    } else {
        d->band = malloc((size_t)bytes);
    }
    if (!d->raw && !d->band) return tiff_fail(d, "out of memory");
    return 0;
}

// The strip holding page row `first`: TIFFReadRGBAStrip leaves its rows
// bottom-up, turned here.
static int read_strip(struct cimg_tiff *d, uint32_t first, uint32_t count) {
    if (!libtiff.ReadRGBAStripExt(d->tiff, first, d->band, 1)) return tiff_fail(d, "damaged image data");
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
// come bottom-up. CMYK with its profile: each tile as coded, top row
// first, then the band's inks through the profile.
static int read_tiles(struct cimg_tiff *d, uint32_t first, uint32_t count) {
    uint32_t tw = d->tile_width, th = d->band_rows;
    for (uint32_t col = 0; col < d->width; col += tw) {
        uint32_t cols = d->width - col < tw ? d->width - col : tw;
        if (d->cmyk) {
            if (tiff_coded_tile(d, col, first, cols, count) != 0) return -1;
            continue;
        }
        if (!libtiff.ReadRGBATileExt(d->tiff, col, first, d->tile, 1)) return tiff_fail(d, "damaged tile");
        for (uint32_t y = 0; y < count; y++)
            memcpy(d->band + (size_t)y * d->width + col, d->tile + (size_t)(th - 1 - y) * tw, (size_t)cols * 4);
    }
    return d->cmyk ? tiff_ink_band(d, count) : 0;
}

/// The band holding page row `y`, read unless it is the one held.
static int load_band(struct cimg_tiff *d, uint32_t y) {
    if (d->band_valid && y >= d->band_first && y < d->band_first + d->band_count) return 0;
    uint32_t first = y - y % d->band_rows;
    uint32_t count = d->height - first < d->band_rows ? d->height - first : d->band_rows;
    d->band_valid = 0;
    uint32_t band = first / d->band_rows;
    int read = d->helper ? tiff_take_band(d, band)
               : d->raw  ? tiff_read_raw(d, first, count)
               : d->tile ? read_tiles(d, first, count)
                         : read_strip(d, first, count);
    if (read != 0) return -1;
    d->band_first = first;
    d->band_count = count;
    d->band_valid = 1;
    return 0;
}

int cimg_tiff_read_row(cimg_tiff *d, uint8_t *row, uint32_t y) {
    if ((!d->band && !d->raw) || y >= d->height) return tiff_fail(d, "no such row");
    if (load_band(d, y) != 0) return -1;
    if (d->raw) {
        memcpy(row, d->raw + (size_t)(y - d->band_first) * d->width * 3, (size_t)d->width * 3);
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
    tiff_stop_helper(d->helper);
    if (d->tiff) libtiff.Close(d->tiff);
    free(d->band);
    free(d->tile);
    free(d->raw);
    cimg_icc_close(d->cmyk);
    pthread_mutex_destroy(&d->file_lock);
    free(d);
}

int cimg_tiff_icc(cimg_tiff *d, const uint8_t **profile, size_t *length) {
    uint32_t count = 0;
    void *data = NULL;
    if (!d->tiff || !libtiff.GetField(d->tiff, TIFFTAG_ICCPROFILE, &count, &data) || !data || count == 0) return -1;
    // A grey profile on a colour picture would make it grey: not applied.
    uint16_t photometric = 0;
    libtiff.GetField(d->tiff, TIFFTAG_PHOTOMETRIC, &photometric);
    if (cimg_icc_is_grey(data, count) && photometric != PHOTOMETRIC_MINISBLACK && photometric != PHOTOMETRIC_MINISWHITE)
        return -1;
    *profile = data;
    *length = count;
    return 0;
}
