// A TIFF's pixels read as they are coded, past libtiff's RGBA reader: 8-bit
// RGB strips as they lie, and 8-bit CMYK strips and tiles through the
// page's CMYK profile (which the RGBA reader would invert plainly).
// tiff_shim.c decides which way a page goes; tiff_bands.c decodes plain
// strips on its second thread through tiff_decode_band.
#include <stdlib.h>
#include <string.h>

#include "row_halves.h"
#include "tiff_internal.h"

/// 3 when the page is 8-bit RGB in strips, pixels interleaved, top row
/// first: then its strips are read as they are coded (TIFFReadEncodedStrip,
/// LZW and the predictor undone), without the RGBA reader's packing and
/// turning, which took a fifth of the time of a 12-megapixel LZW page.
/// 4 when it is CMYK in strips so laid out with a CMYK profile, which lcms2
/// applies to the inks as coded (the RGBA reader would invert them
/// plainly); else 0. CMYK so laid out in tiles gets the profile too
/// (`cmyk`), for its tiles as coded (read_tiles).
int tiff_plain_strips(struct cimg_tiff *d) {
    uint16_t photometric = 0, planar = 0, bits = 0, samples = 0, orientation = ORIENTATION_TOPLEFT;
    uint16_t inks = INKSET_CMYK;
    int tiled = libtiff.IsTiled(d->tiff);
    int laid = libtiff.GetField(d->tiff, TIFFTAG_PHOTOMETRIC, &photometric) &&
               libtiff.GetFieldDefaulted(d->tiff, TIFFTAG_PLANARCONFIG, &planar) && planar == PLANARCONFIG_CONTIG &&
               libtiff.GetFieldDefaulted(d->tiff, TIFFTAG_BITSPERSAMPLE, &bits) && bits == 8 &&
               libtiff.GetFieldDefaulted(d->tiff, TIFFTAG_SAMPLESPERPIXEL, &samples) &&
               (!libtiff.GetField(d->tiff, TIFFTAG_ORIENTATION, &orientation) || orientation == ORIENTATION_TOPLEFT);
    if (laid && !tiled && photometric == PHOTOMETRIC_RGB && samples == 3) return 3;
    const uint8_t *icc;
    size_t length;
    if (!laid || photometric != PHOTOMETRIC_SEPARATED || samples != 4 ||
        (libtiff.GetField(d->tiff, TIFFTAG_INKSET, &inks) && inks != INKSET_CMYK) || cimg_tiff_icc(d, &icc, &length) != 0)
        return 0;
    d->cmyk = cimg_icc_open_cmyk(icc, length, 0);
    return d->cmyk && !tiled ? 4 : 0;
}

/// Whether the page is tiled with each tile coded as 4 bytes a pixel.
int tiff_coded_tiles(struct cimg_tiff *d) {
    uint32_t tw = 0, th = 0;
    return libtiff.IsTiled(d->tiff) && libtiff.GetField(d->tiff, TIFFTAG_TILEWIDTH, &tw) &&
           libtiff.GetField(d->tiff, TIFFTAG_TILELENGTH, &th) &&
           (uint64_t)libtiff.TileSize(d->tiff) == (uint64_t)tw * th * 4;
}

// The tile at (col, first) as coded: its first `cols` inks of `count` rows
// into their place in the band, 4 bytes a pixel as the band's RGBA is.
int tiff_coded_tile(struct cimg_tiff *d, uint32_t col, uint32_t first, uint32_t cols, uint32_t count) {
    tmsize_t size = (tmsize_t)d->tile_width * d->band_rows * 4;
    uint32_t tile = libtiff.ComputeTile(d->tiff, col, first, 0, 0);
    if (libtiff.ReadEncodedTile(d->tiff, tile, d->tile, size) != size) return tiff_fail(d, "damaged tile");
    for (uint32_t y = 0; y < count; y++)
        memcpy(d->band + (size_t)y * d->width + col, (const uint8_t *)d->tile + (size_t)y * d->tile_width * 4,
               (size_t)cols * 4);
    return 0;
}

/// Rows [first, last) of the band's inks, made opaque sRGB in place; -1
/// when there was no memory for a row.
static int ink_rows(void *context, int first, int last) {
    struct cimg_tiff *d = context;
    uint8_t *rgb = malloc((size_t)d->width * 3);
    for (int y = first; rgb && y < last; y++) {
        uint8_t *row = (uint8_t *)(d->band + (size_t)y * d->width);
        cimg_icc_convert(d->cmyk, row, rgb, d->width);
        for (uint32_t x = 0; x < d->width; x++)  // TIFFGetR's order: red in the low byte
            row[4 * x] = rgb[3 * x], row[4 * x + 1] = rgb[3 * x + 1], row[4 * x + 2] = rgb[3 * x + 2],
                    row[4 * x + 3] = 255;
    }
    int made = rgb != NULL;
    free(rgb);
    return made ? 0 : -1;
}

int tiff_ink_band(struct cimg_tiff *d, uint32_t count) {
    // lcms2's 4-D transform is most of a CMYK page's time: a band of
    // 64 Ki pixels or more shares it with a second thread (the transform
    // keeps no cache, so both may use it).
    int split = (uint64_t)d->width * count >= (1u << 16);
    return cimg_row_halves((int)count, split, ink_rows, d) == 0 ? 0 : tiff_fail(d, "out of memory");
}

int tiff_decode_band(TIFF *tiff, uint8_t *raw, uint32_t width, cimg_icc *cmyk, uint32_t first, uint32_t count) {
    uint32_t per_strip = 0;
    libtiff.GetFieldDefaulted(tiff, TIFFTAG_ROWSPERSTRIP, &per_strip);
    if (per_strip == 0) return -1;
    int bytes = cmyk ? 4 : 3;
    for (uint32_t row = first; row < first + count; row += per_strip) {
        uint32_t rows = first + count - row < per_strip ? first + count - row : per_strip;
        tmsize_t want = (tmsize_t)width * rows * bytes;
        uint8_t *at = raw + (size_t)(row - first) * width * bytes;
        if (libtiff.ReadEncodedStrip(tiff, libtiff.ComputeStrip(tiff, row, 0), at, want) != want) return -1;
    }
    if (!cmyk) return 0;
    // Row r's RGB lands at 3rw, below the inks of every later row (4r'w).
    uint8_t *rgb = malloc((size_t)width * 3);
    if (!rgb) return -1;
    for (uint32_t r = 0; r < count; r++) {
        cimg_icc_convert(cmyk, raw + (size_t)r * width * 4, rgb, width);
        memcpy(raw + (size_t)r * width * 3, rgb, (size_t)width * 3);
    }
    free(rgb);
    return 0;
}

int tiff_read_raw(struct cimg_tiff *d, uint32_t first, uint32_t count) {
    return tiff_decode_band(d->tiff, d->raw, d->width, d->cmyk, first, count) == 0 ? 0 : tiff_fail(d, "damaged image data");
}
