// HEIF/HEIC through libheif, opened on first use (dlopen) as libavif is:
// libheif brings libde265 and its encoders' libraries, which a start that
// shows no HEIC should not load. Only the header comes from libheif-dev.
#include "CImageShim.h"
#include <dlfcn.h>
#include <libheif/heif.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
    struct heif_context *(*contextAlloc)(void);
    void (*contextFree)(struct heif_context *);
    struct heif_error (*readFromMemory)(struct heif_context *, const void *, size_t, const struct heif_reading_options *);
    void (*setMaximumSize)(struct heif_context *, int);
    struct heif_error (*primaryHandle)(struct heif_context *, struct heif_image_handle **);
    void (*handleRelease)(const struct heif_image_handle *);
    int (*handleWidth)(const struct heif_image_handle *);
    int (*handleHeight)(const struct heif_image_handle *);
    enum heif_color_profile_type (*profileType)(const struct heif_image_handle *);
    size_t (*profileSize)(const struct heif_image_handle *);
    struct heif_error (*profile)(const struct heif_image_handle *, void *);
    struct heif_error (*decode)(const struct heif_image_handle *, struct heif_image **, enum heif_colorspace,
                                enum heif_chroma, const struct heif_decoding_options *);
    int (*imageWidth)(const struct heif_image *, enum heif_channel);
    int (*imageHeight)(const struct heif_image *, enum heif_channel);
    const uint8_t *(*plane)(const struct heif_image *, enum heif_channel, int *);
    void (*imageRelease)(const struct heif_image *);
    struct heif_error (*nclx)(const struct heif_image_handle *, struct heif_color_profile_nclx **);
    void (*nclxFree)(struct heif_color_profile_nclx *);
    int (*lumaBits)(const struct heif_image_handle *);
    void (*setThreads)(struct heif_context *, int);
} heif;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;
static char load_error[256] = "libheif was not loaded";

#define FIND(field, name)                                                   \
    if (!(*(void **)&heif.field = dlsym(library, name))) {                  \
        snprintf(load_error, sizeof load_error, "libheif has no %s", name); \
        return;                                                             \
    }

static void load(void) {
    void *library = dlopen("libheif.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libheif.so", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "%s", why ? why : "libheif could not be loaded");
        return;
    }
    FIND(contextAlloc, "heif_context_alloc")
    FIND(contextFree, "heif_context_free")
    FIND(readFromMemory, "heif_context_read_from_memory_without_copy")
    FIND(setMaximumSize, "heif_context_set_maximum_image_size_limit")
    FIND(primaryHandle, "heif_context_get_primary_image_handle")
    FIND(handleRelease, "heif_image_handle_release")
    FIND(handleWidth, "heif_image_handle_get_width")
    FIND(handleHeight, "heif_image_handle_get_height")
    FIND(profileType, "heif_image_handle_get_color_profile_type")
    FIND(profileSize, "heif_image_handle_get_raw_color_profile_size")
    FIND(profile, "heif_image_handle_get_raw_color_profile")
    FIND(decode, "heif_decode_image")
    FIND(imageWidth, "heif_image_get_width")
    FIND(imageHeight, "heif_image_get_height")
    FIND(plane, "heif_image_get_plane_readonly")
    FIND(imageRelease, "heif_image_release")
    FIND(nclx, "heif_image_handle_get_nclx_color_profile")
    FIND(nclxFree, "heif_nclx_color_profile_free")
    FIND(lumaBits, "heif_image_handle_get_luma_bits_per_pixel")
    FIND(setThreads, "heif_context_set_max_decoding_threads")
    loaded = 0;
}
#undef FIND

int cimg_heif_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *cimg_heif_load_error(void) { return load_error; }

struct cimg_heif {
    uint8_t *data;
    size_t size;
    struct heif_context *context;
    struct heif_image_handle *handle;
    struct heif_image *image;
    const uint8_t *pixels;
    int stride;
    uint8_t *icc;
    size_t icc_size;
    int primaries, transfer;  // nclx's, else 2 (unspecified)
    uint8_t *toned;           // an HDR picture brought to 8-bit sRGB
    char message[256];
};

cimg_heif *cimg_heif_open(FILE *file, size_t max_bytes) {
    if (cimg_heif_load() != 0) return NULL;
    cimg_heif *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    if (cimg_read_whole(file, max_bytes, &d->data, &d->size) != 0) {
        snprintf(d->message, sizeof d->message, "file over %zu bytes", max_bytes);
    }
    if (!d->data) {
        free(d);
        return NULL;
    }
    d->context = heif.contextAlloc();
    return d;
}

static int failed(cimg_heif *d, struct heif_error e) {
    snprintf(d->message, sizeof d->message, "%s", e.message ? e.message : "unknown libheif error");
    return -1;
}

int cimg_heif_read_header(cimg_heif *d, int max_side, uint32_t *width, uint32_t *height) {
    if (d->message[0] || !d->context) return -1;
    heif.setMaximumSize(d->context, max_side);
    struct heif_error e = heif.readFromMemory(d->context, d->data, d->size, NULL);
    if (e.code != heif_error_Ok) return failed(d, e);
    e = heif.primaryHandle(d->context, &d->handle);
    if (e.code != heif_error_Ok) return failed(d, e);
    d->primaries = d->transfer = 2;
    struct heif_color_profile_nclx *nclx = NULL;
    if (heif.nclx(d->handle, &nclx).code == heif_error_Ok && nclx) {
        d->primaries = (int)nclx->color_primaries;
        d->transfer = (int)nclx->transfer_characteristics;
        heif.nclxFree(nclx);
    }
    int w = heif.handleWidth(d->handle), h = heif.handleHeight(d->handle);
    if (w <= 0 || h <= 0) {
        snprintf(d->message, sizeof d->message, "no size");
        return -1;
    }
    *width = (uint32_t)w;
    *height = (uint32_t)h;
    return 0;
}

/// PQ or HLG at 10 or 12 bits, tone-mapped into 8-bit sRGB rows.
static int tone_map(cimg_heif *d, int w, int h) {
    int stride;
    const uint8_t *wide = heif.plane(d->image, heif_channel_interleaved, &stride);
    int bits = heif.lumaBits(d->handle);
    if (!wide || stride < w * 8 || bits <= 8 || bits > 16 || !(d->toned = malloc((size_t)w * h * 4))) return -1;
    uint16_t *row = malloc((size_t)w * 8);
    if (!row) return -1;
    for (int y = 0; y < h; y++) {
        const uint8_t *in = wide + (size_t)y * stride;
        for (int i = 0; i < w * 4; i++) {
            unsigned v = in[2 * i] | (unsigned)in[2 * i + 1] << 8;  // little-endian, `bits` wide
            row[i] = (uint16_t)(v << (16 - bits) | v >> (2 * bits - 16 > 0 ? 2 * bits - 16 : 0));
        }
        cimg_hdr_to_srgb8(row, d->toned + (size_t)y * w * 4, (size_t)w, d->transfer, d->primaries == 9);
    }
    free(row);
    d->pixels = d->toned;
    d->stride = w * 4;
    return 0;
}

int cimg_heif_decode(cimg_heif *d, uint32_t *width, uint32_t *height) {
    if (!d->handle) return -1;
    int hdr = (d->transfer == CIMG_TRANSFER_PQ || d->transfer == CIMG_TRANSFER_HLG) && heif.lumaBits(d->handle) > 8;
    // The tiles of a grid (as phones save them) decoded side by side.
    heif.setThreads(d->context, 2);
    // Transformations (irot, imir, clap) applied, as the default options say.
    struct heif_error e = heif.decode(d->handle, &d->image, heif_colorspace_RGB,
                                      hdr ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RGBA, NULL);
    if (e.code != heif_error_Ok) return failed(d, e);
    int w = heif.imageWidth(d->image, heif_channel_interleaved);
    int h = heif.imageHeight(d->image, heif_channel_interleaved);
    if (hdr && w > 0 && h > 0) {
        if (tone_map(d, w, h) != 0) {
            snprintf(d->message, sizeof d->message, "out of memory for the HDR picture");
            return -1;
        }
    } else {
        d->pixels = heif.plane(d->image, heif_channel_interleaved, &d->stride);
    }
    if (!d->pixels || w <= 0 || h <= 0 || d->stride < w * 4) {
        snprintf(d->message, sizeof d->message, "no interleaved RGBA plane");
        return -1;
    }
    *width = (uint32_t)w;
    *height = (uint32_t)h;
    return 0;
}

const uint8_t *cimg_heif_row(const cimg_heif *d, uint32_t y) {
    return d->pixels ? d->pixels + (size_t)y * (size_t)d->stride : NULL;
}

int cimg_heif_icc(cimg_heif *d, const uint8_t **profile, size_t *length) {
    if (!d->handle) return -1;
    enum heif_color_profile_type type = heif.profileType(d->handle);
    if (type != heif_color_profile_type_prof && type != heif_color_profile_type_rICC) {
        // nclx: its primaries and transfer; HDR is tone-mapped to sRGB's
        // curve already, and from BT.2020 to BT.709's primaries.
        int primaries = d->primaries, transfer = d->transfer;
        if (transfer == CIMG_TRANSFER_PQ || transfer == CIMG_TRANSFER_HLG) {
            transfer = 13;
            if (primaries == 9) primaries = 1;
        }
        if (!d->icc && cimg_icc_cicp(primaries, transfer, &d->icc, &d->icc_size) != 0) return -1;
        *profile = d->icc;
        *length = d->icc_size;
        return 0;
    }
    if (!d->icc) {
        size_t size = heif.profileSize(d->handle);
        if (size == 0 || size > (16u << 20) || !(d->icc = malloc(size))) return -1;
        if (heif.profile(d->handle, d->icc).code != heif_error_Ok) {
            free(d->icc);
            d->icc = NULL;
            return -1;
        }
        d->icc_size = size;
    }
    *profile = d->icc;
    *length = d->icc_size;
    return 0;
}

const char *cimg_heif_message(const cimg_heif *d) { return d->message; }

void cimg_heif_close(cimg_heif *d) {
    if (!d) return;
    if (d->image) heif.imageRelease(d->image);
    if (d->handle) heif.handleRelease(d->handle);
    if (d->context) heif.contextFree(d->context);
    free(d->icc);
    free(d->toned);
    free(d->data);
    free(d);
}
