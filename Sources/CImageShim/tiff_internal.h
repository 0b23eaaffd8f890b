// The TIFF decoder's insides, shared by tiff_shim.c (libtiff's handles,
// strips and tiles), tiff_coded.c (pixels read as coded) and tiff_bands.c
// (plain RGB's bands on two threads).
// Not part of the module's interface.
#ifndef CIMG_TIFF_INTERNAL_H
#define CIMG_TIFF_INTERNAL_H

#include "CImageShim.h"
#include <pthread.h>
#include <stdio.h>
#include <tiffio.h>

/// libtiff's functions, found by cimg_tiff_load (tiff_loader.c) when the first
/// TIFF is opened: linked, libtiff and the libraries it brings (libLerc,
/// libjbig, libzstd, liblzma, libdeflate) cost every start 0.5 ms.
/// Their types are the header's own.
struct libtiff {
    __typeof__(TIFFGetField) *GetField;
    __typeof__(TIFFGetFieldDefaulted) *GetFieldDefaulted;
    __typeof__(TIFFIsTiled) *IsTiled;
    __typeof__(TIFFClose) *Close;
    __typeof__(TIFFStripSize) *StripSize;
    __typeof__(TIFFReadRGBATileExt) *ReadRGBATileExt;
    __typeof__(TIFFReadRGBAStripExt) *ReadRGBAStripExt;
    __typeof__(TIFFReadEncodedStrip) *ReadEncodedStrip;
    __typeof__(TIFFRGBAImageOK) *RGBAImageOK;
    __typeof__(TIFFOpenOptionsAlloc) *OpenOptionsAlloc;
    __typeof__(TIFFOpenOptionsFree) *OpenOptionsFree;
    __typeof__(TIFFOpenOptionsSetMaxSingleMemAlloc) *OpenOptionsSetMaxSingleMemAlloc;
    __typeof__(TIFFOpenOptionsSetErrorHandlerExtR) *OpenOptionsSetErrorHandlerExtR;
    __typeof__(TIFFOpenOptionsSetWarningHandlerExtR) *OpenOptionsSetWarningHandlerExtR;
    __typeof__(TIFFComputeStrip) *ComputeStrip;
    __typeof__(TIFFComputeTile) *ComputeTile;
    __typeof__(TIFFTileSize) *TileSize;
    __typeof__(TIFFReadEncodedTile) *ReadEncodedTile;
    __typeof__(TIFFClientOpenExt) *ClientOpenExt;
};
// Hidden: a library loaded later must not bind a symbol of its own to it.
__attribute__((visibility("hidden"))) extern struct libtiff libtiff;

/// One libtiff handle's way into the file the page's decoders share: its
/// own position, the FILE read under `lock` (a second decoder reads it too).
struct reader {
    FILE *file;
    pthread_mutex_t *lock;
    off_t at;
    char *message;   // where its errors go (200 bytes)
};

struct tiff_helper;

struct cimg_tiff {
    FILE *file;
    pthread_mutex_t file_lock;
    struct reader reader;
    TIFF *tiff;
    uint32_t width, height;
    // One band of the page at a time, RGBA8 a pixel, top row first: a strip,
    // or a row of tiles. Memory follows the band, not the page.
    uint32_t *band;
    uint32_t band_rows;       // rows a band holds: a strip's (plain RGB: strips for 64), or a tile's
    uint32_t band_first;      // the page row the band starts at
    uint32_t band_count;      // rows in the band read (the last may be short)
    int band_valid;
    uint32_t tile_width;      // tiled pages
    uint32_t *tile;           // one tile: RGBA8 from the RGBA reader, or CMYK as coded (`cmyk`)
    int plain;                // bytes a pixel of 8-bit strips read as coded (see tiff_plain_strips):
                              // 3 (RGB) or 4 (CMYK, through `cmyk`); 0, the RGBA reader
    cimg_icc *cmyk;           // a CMYK page's profile, to sRGB (lcms2 with no cache: both threads use
                              // it), applied to strips (plain 4) or to tiles as coded
    uint8_t *raw;             // their rows, top row first (RGB8 once decoded: see tiff_decode_band)
    struct tiff_helper *helper;   // plain RGB's second decoder (tiff_bands.c)
    char message[200];
};

/// The step's failure, named in the decoder's message unless one is
/// there already: -1.
static inline int tiff_fail(struct cimg_tiff *d, const char *message) {
    if (d->message[0] == 0) snprintf(d->message, sizeof d->message, "%s", message);
    return -1;
}

/// tiff_coded.c: 3 when the page's strips are read as coded RGB, 4 when as
/// CMYK through its profile (opened into `cmyk`, which tiled CMYK gets too),
/// else 0; whether its tiles are 4 bytes a pixel; the tile at (col, first)
/// as coded into the band's first `cols` pixels of `count` rows; and then
/// the band's `count` rows of inks made sRGB through `cmyk`, in place.
int tiff_plain_strips(struct cimg_tiff *d);
int tiff_coded_tiles(struct cimg_tiff *d);
int tiff_coded_tile(struct cimg_tiff *d, uint32_t col, uint32_t first, uint32_t cols, uint32_t count);
int tiff_ink_band(struct cimg_tiff *d, uint32_t count);

/// A libtiff handle on the page through `reader`, its errors into the
/// reader's message; NULL when it is not one.
TIFF *tiff_open_page(struct reader *reader);
/// A band of plain strips as coded, through `tiff`: the strips holding rows
/// `first` to `first + count - 1`, top row first, into `raw` as RGB8; CMYK
/// strips (`cmyk` not NULL) go through it there, on the thread that decoded
/// them, so that both of a page's decoders share that work. 0, or -1.
int tiff_decode_band(TIFF *tiff, uint8_t *raw, uint32_t width, cimg_icc *cmyk, uint32_t first, uint32_t count);
/// The same through the page's own handle, into its `raw`, its failure named.
int tiff_read_raw(struct cimg_tiff *d, uint32_t first, uint32_t count);

/// tiff_bands.c: the second decoder, when the page has more than one band
/// (else, or when it cannot be had, none); band `band` into `raw`, from the
/// bands decoded ahead or decoded here; the second decoder stopped and freed.
void tiff_start_helper(struct cimg_tiff *d);
int tiff_take_band(struct cimg_tiff *d, uint32_t band);
void tiff_stop_helper(struct tiff_helper *h);

#endif
