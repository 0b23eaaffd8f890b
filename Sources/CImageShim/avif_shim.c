#include "CImageShim.h"
#include <avif/avif.h>
#include "dl_table.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

// libavif is opened on first use, not linked: it brings libaom, dav1d,
// rav1e, SVT-AV1, libgav1, libyuv and abseil, some twenty libraries whose
// loading and relocation cost every start 3 ms (Benchmarks: a C program
// linked with -lavif starts in 3.5 ms, without it in 0.6), though few
// images are AVIF. The headers fix the ABI (the decoder's fields are set
// directly), so the library opened is the one they came with.
static struct {
    avifDecoder *(*decoderCreate)(void);
    void (*decoderDestroy)(avifDecoder *);
    avifResult (*decoderSetIOMemory)(avifDecoder *, const uint8_t *, size_t);
    avifResult (*decoderParse)(avifDecoder *);
    avifResult (*decoderNextImage)(avifDecoder *);
    avifResult (*decoderReset)(avifDecoder *);
    const char *(*resultToString)(avifResult);
    void (*rgbImageSetDefaults)(avifRGBImage *, const avifImage *);
    void (*rgbImageAllocatePixels)(avifRGBImage *);
    void (*rgbImageFreePixels)(avifRGBImage *);
    avifResult (*imageYUVToRGB)(const avifImage *, avifRGBImage *);
    // Optional: a libavif without it shows the whole coded picture.
    avifBool (*cropRectConvertCleanApertureBox)(avifCropRect *, const avifCleanApertureBox *, uint32_t, uint32_t,
                                                avifPixelFormat, avifDiagnostics *);
} avif;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;
static char load_error[256] = "libavif was not loaded";

#define FIND(field, name) \
    if (!cimg_dl_find(library, name, (void **)&avif.field, "libavif", load_error, sizeof load_error)) return;

static void load(void) {
    // The -dev package's link, else the runtime name of the headers' version.
    static const char *const names[] = {"libavif.so", AVIF_VERSION_MAJOR == 0 ? "libavif.so.15" : "libavif.so.16", NULL};
    void *library = cimg_dl_open(names, "libavif", load_error, sizeof load_error);
    if (!library) return;
    FIND(decoderCreate, "avifDecoderCreate")
    FIND(decoderDestroy, "avifDecoderDestroy")
    FIND(decoderSetIOMemory, "avifDecoderSetIOMemory")
    FIND(decoderParse, "avifDecoderParse")
    FIND(decoderNextImage, "avifDecoderNextImage")
    FIND(decoderReset, "avifDecoderReset")
    FIND(resultToString, "avifResultToString")
    FIND(rgbImageSetDefaults, "avifRGBImageSetDefaults")
    FIND(rgbImageAllocatePixels, "avifRGBImageAllocatePixels")
    FIND(rgbImageFreePixels, "avifRGBImageFreePixels")
    FIND(imageYUVToRGB, "avifImageYUVToRGB")
    *(void **)&avif.cropRectConvertCleanApertureBox = dlsym(library, "avifCropRectConvertCleanApertureBox");
    loaded = 0;
}

int cimg_avif_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *cimg_avif_load_error(void) { return load_error; }

// libavif decodes from memory (its parser seeks in the ISO boxes), so the
// file is read whole; each image is converted to RGBA8 in one buffer,
// reused from frame to frame. libavif never prints and never longjmps.
struct cimg_avif {
    FILE *file;
    uint8_t *data;
    size_t count;
    avifDecoder *decoder;
    avifRGBImage rgb;
    avifRGBImage wide;        // an HDR frame at 16 bits, before its tone mapping
    int has_pixels, has_wide;
    uint32_t width, height;   // from the header: every frame must be this size
    avifCropRect crop;        // the clean aperture (clap), else the whole picture
    uint8_t *coded;           // a profile made from nclx, when it is not sRGB's
    size_t coded_size;
    char message[256];
};

static int fail(cimg_avif *d, avifResult result) {
    const char *detail = d->decoder ? d->decoder->diag.error : "";
    if (detail && detail[0]) snprintf(d->message, sizeof d->message, "%s", detail);
    else snprintf(d->message, sizeof d->message, "%s", avif.resultToString(result));
    return -1;
}

static int read_all(cimg_avif *d) {
    size_t capacity = 65536;
    d->data = malloc(capacity);
    if (!d->data) return -1;
    for (;;) {
        if (d->count == capacity) {
            uint8_t *grown = realloc(d->data, capacity * 2);
            if (!grown) return -1;
            d->data = grown;
            capacity *= 2;
        }
        size_t got = fread(d->data + d->count, 1, capacity - d->count, d->file);
        if (got == 0) return ferror(d->file) ? -1 : 0;
        d->count += got;
    }
}

cimg_avif *cimg_avif_open(FILE *file) {
    if (cimg_avif_load() != 0) return NULL;
    cimg_avif *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->file = file;
    d->decoder = avif.decoderCreate();
    if (!d->decoder) {
        free(d);
        return NULL;
    }
    return d;
}

// EXIF's orientation (1-8) for the irot/imir boxes: rotation first, then the mirror.
static int orientation(const avifImage *image) {
    int clockwise = 0, flip = 0;
    if (image->transformFlags & AVIF_TRANSFORM_IROT) clockwise = (360 - 90 * (image->irot.angle & 3)) % 360;
    if (image->transformFlags & AVIF_TRANSFORM_IMIR) {
        flip = 1;
        if (image->imir.mode == 0) clockwise = (clockwise + 180) % 360;   // top-bottom = 180° + left-right
    }
    static const int table[4][2] = { {1, 2}, {6, 5}, {3, 4}, {8, 7} };
    return table[clockwise / 90][flip];
}

int cimg_avif_read_header(cimg_avif *d, uint32_t max_pixels, uint32_t max_side, cimg_avif_info *info) {
    if (read_all(d) != 0) {
        snprintf(d->message, sizeof d->message, "%s", ferror(d->file) ? "read error" : "out of memory");
        return -1;
    }
    // libavif refuses a limit above its own default (16384² pixels) as
    // "not implemented": past that it cannot promise its arithmetic.
    d->decoder->imageSizeLimit = max_pixels < AVIF_DEFAULT_IMAGE_SIZE_LIMIT ? max_pixels : AVIF_DEFAULT_IMAGE_SIZE_LIMIT;
    d->decoder->imageDimensionLimit = max_side;
    d->decoder->maxThreads = 2;
    d->decoder->ignoreExif = AVIF_TRUE;
    d->decoder->ignoreXMP = AVIF_TRUE;
    // Browsers show files that lack a pixi box; so do we.
    d->decoder->strictFlags = AVIF_STRICT_DISABLED;
    avifResult result = avif.decoderSetIOMemory(d->decoder, d->data, d->count);
    if (result == AVIF_RESULT_OK) result = avif.decoderParse(d->decoder);
    if (result != AVIF_RESULT_OK) return fail(d, result);
    const avifImage *image = d->decoder->image;
    d->width = image->width;
    d->height = image->height;
    // The clean aperture (clap) is what the picture shows: cut before the
    // rotation and mirror, as the transforms' order says. One that the
    // image cannot hold is left out, as browsers do.
    d->crop = (avifCropRect){ 0, 0, image->width, image->height };
    avifCropRect clean;
    if ((image->transformFlags & AVIF_TRANSFORM_CLAP) && avif.cropRectConvertCleanApertureBox &&
        avif.cropRectConvertCleanApertureBox(&clean, &image->clap, image->width, image->height, image->yuvFormat,
                                             &d->decoder->diag) &&
        clean.width > 0 && clean.height > 0 && clean.x + clean.width <= image->width &&
        clean.y + clean.height <= image->height)
        d->crop = clean;
    info->width = d->crop.width;
    info->height = d->crop.height;
    info->frames = d->decoder->imageCount > 0 ? (uint32_t)d->decoder->imageCount : 1;
    info->orientation = orientation(d->decoder->image);
    return 0;
}

/// RGBA pixels of `depth` bits for the frames of `image`'s size, made
/// once (`made` says so): every frame has the header's size.
static int make_pixels(avifRGBImage *rgb, int *made, const avifImage *image, uint32_t depth) {
    if (*made) return 0;
    avif.rgbImageSetDefaults(rgb, image);
    rgb->format = AVIF_RGB_FORMAT_RGBA;
    rgb->depth = depth;
    avif.rgbImageAllocatePixels(rgb);
    if (!rgb->pixels) return -1;
    *made = 1;
    return 0;
}

int cimg_avif_next_frame(cimg_avif *d, double *duration) {
    avifResult result = avif.decoderNextImage(d->decoder);
    if (result == AVIF_RESULT_NO_IMAGES_REMAINING) return 1;
    if (result != AVIF_RESULT_OK) return fail(d, result);
    avifImage *image = d->decoder->image;
    // The rows handed out are the header's size: a frame of another size
    // would be read past its end.
    if (image->width != d->width || image->height != d->height) {
        snprintf(d->message, sizeof d->message, "a frame of %ux%u in an image of %ux%u",
                 image->width, image->height, d->width, d->height);
        return -1;
    }
    // Every frame has the header's size (above): the pixels, once made, fit them all.
    if (make_pixels(&d->rgb, &d->has_pixels, image, 8) != 0) return fail(d, AVIF_RESULT_OUT_OF_MEMORY);
    avifTransferCharacteristics transfer = image->transferCharacteristics;
    if (transfer == CIMG_TRANSFER_PQ || transfer == CIMG_TRANSFER_HLG) {
        // HDR: decoded at 16 bits, then tone-mapped into the 8-bit rows.
        if (make_pixels(&d->wide, &d->has_wide, image, 16) != 0) return fail(d, AVIF_RESULT_OUT_OF_MEMORY);
        result = avif.imageYUVToRGB(image, &d->wide);
        if (result != AVIF_RESULT_OK) return fail(d, result);
        int bt2020 = image->colorPrimaries == AVIF_COLOR_PRIMARIES_BT2020;
        for (uint32_t y = 0; y < d->wide.height; y++) {
            cimg_hdr_to_srgb8((const uint16_t *)(d->wide.pixels + (size_t)y * d->wide.rowBytes),
                              d->rgb.pixels + (size_t)y * d->rgb.rowBytes, d->wide.width, (int)transfer, bt2020);
        }
    } else {
        result = avif.imageYUVToRGB(image, &d->rgb);
        if (result != AVIF_RESULT_OK) return fail(d, result);
    }
    *duration = d->decoder->imageTiming.duration;
    return 0;
}

int cimg_avif_rewind(cimg_avif *d) {
    avifResult result = avif.decoderReset(d->decoder);
    return result == AVIF_RESULT_OK ? 0 : fail(d, result);
}

const uint8_t *cimg_avif_row(const cimg_avif *d, uint32_t y) {
    if (!d->has_pixels || y >= d->crop.height || d->crop.y + y >= d->rgb.height) return NULL;
    return d->rgb.pixels + (size_t)(d->crop.y + y) * d->rgb.rowBytes + (size_t)d->crop.x * 4;
}

const char *cimg_avif_message(const cimg_avif *d) { return d->message; }

void cimg_avif_close(cimg_avif *d) {
    if (!d) return;
    if (d->has_pixels) avif.rgbImageFreePixels(&d->rgb);
    if (d->has_wide) avif.rgbImageFreePixels(&d->wide);
    avif.decoderDestroy(d->decoder);
    free(d->coded);
    free(d->data);
    free(d);
}

int cimg_avif_icc(cimg_avif *d, const uint8_t **profile, size_t *length) {
    if (!d->decoder || !d->decoder->image) return -1;
    const avifImage *image = d->decoder->image;
    if (image->icc.data && image->icc.size > 0) {
        *profile = image->icc.data;
        *length = image->icc.size;
        return 0;
    }
    // No profile: nclx's primaries and transfer (HDR as tone-mapped).
    if (!d->coded && cimg_icc_cicp((int)image->colorPrimaries, (int)image->transferCharacteristics, &d->coded,
                                   &d->coded_size) != 0)
        return -1;
    *profile = d->coded;
    *length = d->coded_size;
    return 0;
}
