// HEIF/HEIC through libheif, opened on first use (dlopen) as libavif is:
// libheif brings libde265 and its encoders' libraries, which a start that
// shows no HEIC should not load. Only the header comes from libheif-dev.
#include "CImageShim.h"
#include "dl_table.h"
#include "heif_boxes.h"
#include "hevc_plugin.h"
#include <libheif/heif.h>
#include <dlfcn.h>
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
    int (*planeBits)(const struct heif_image *, enum heif_channel);
    int (*imageHeight)(const struct heif_image *, enum heif_channel);
    const uint8_t *(*plane)(const struct heif_image *, enum heif_channel, int *);
    void (*imageRelease)(const struct heif_image *);
    struct heif_error (*nclx)(const struct heif_image_handle *, struct heif_color_profile_nclx **);
    void (*nclxFree)(struct heif_color_profile_nclx *);
    int (*lumaBits)(const struct heif_image_handle *);
    int (*chromaBits)(const struct heif_image_handle *);
    int (*hasAlpha)(const struct heif_image_handle *);
    int (*decoders)(enum heif_compression_format, const struct heif_decoder_descriptor **, int);
    const char *(*decoderName)(const struct heif_decoder_descriptor *);
} heif;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;
static char load_error[256] = "libheif was not loaded";

#define FIND(field, name) \
    if (!cimg_dl_find(library, name, (void **)&heif.field, "libheif", load_error, sizeof load_error)) return;

static void load(void) {
    static const char *const names[] = {"libheif.so.1", "libheif.so", NULL};
    void *library = cimg_dl_open(names, "libheif", load_error, sizeof load_error);
    if (!library) return;
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
    FIND(planeBits, "heif_image_get_bits_per_pixel_range")
    FIND(imageHeight, "heif_image_get_height")
    FIND(plane, "heif_image_get_plane_readonly")
    FIND(imageRelease, "heif_image_release")
    FIND(nclx, "heif_image_handle_get_nclx_color_profile")
    FIND(nclxFree, "heif_nclx_color_profile_free")
    FIND(lumaBits, "heif_image_handle_get_luma_bits_per_pixel")
    FIND(chromaBits, "heif_image_handle_get_chroma_bits_per_pixel")
    FIND(hasAlpha, "heif_image_handle_has_alpha_channel")
    // Only to name the decoder in use (cimg_heif_hevc_decoder).
    *(void **)&heif.decoders = dlsym(library, "heif_get_decoder_descriptors");
    *(void **)&heif.decoderName = dlsym(library, "heif_decoder_descriptor_get_id_name");
    loaded = 0;
    cimg_hevc_register(library);  // libde265 with two workers (hevc_plugin.c)
}
#undef FIND

int cimg_heif_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *cimg_heif_load_error(void) { return load_error; }

const char *cimg_heif_hevc_decoder(void) {
    const struct heif_decoder_descriptor *first = NULL;
    if (cimg_heif_load() != 0 || !heif.decoders || !heif.decoderName) return "";
    if (heif.decoders(heif_compression_HEVC, &first, 1) < 1 || !first) return "";
    const char *name = heif.decoderName(first);
    return name ? name : "";
}

struct cimg_heif {
    uint8_t *data;
    size_t size;
    struct heif_context *context;
    struct heif_image_handle *handle;
    struct heif_image *image;
    const uint8_t *pixels;    // interleaved RGBA rows (HDR, and more than 8 bits)
    int stride;
    const uint8_t *planes[3]; // else (8 bits, no alpha) planes R, G and B,
    int strides[3];           // interleaved a row at a time into `row`
    int width, height;        // the planes'
    uint8_t *row;
    uint8_t *icc;
    size_t icc_size;
    struct heif_color_profile_nclx container;  // the nclx box, when `has_nclx`
    int has_nclx;
    uint32_t items, tiles;    // heif_count_items', counted once at open
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
    heif_count_items(d->data, d->size, &d->items, &d->tiles);
    return d;
}

static int failed(cimg_heif *d, struct heif_error e) {
    snprintf(d->message, sizeof d->message, "%s", e.message ? e.message : "unknown libheif error");
    return -1;
}

int cimg_heif_count(const cimg_heif *d, uint32_t *items, uint32_t *tiles) {
    if (!d->data) return -1;
    *items = d->items;
    *tiles = d->tiles;
    return 0;
}

int cimg_heif_read_header(cimg_heif *d, int max_side, uint32_t *width, uint32_t *height) {
    if (d->message[0] || !d->context) return -1;
    heif.setMaximumSize(d->context, max_side);
    struct heif_error e = heif.readFromMemory(d->context, d->data, d->size, NULL);
    if (e.code != heif_error_Ok) return failed(d, e);
    e = heif.primaryHandle(d->context, &d->handle);
    if (e.code != heif_error_Ok) return failed(d, e);
    struct heif_color_profile_nclx *nclx = NULL;
    if (heif.nclx(d->handle, &nclx).code == heif_error_Ok && nclx) {
        d->container = *nclx;
        d->has_nclx = 1;
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

/// The nclx box's primaries and transfer characteristics, else 2
/// (unspecified).
static int primaries(const cimg_heif *d) { return d->has_nclx ? (int)d->container.color_primaries : 2; }
static int transfer(const cimg_heif *d) { return d->has_nclx ? (int)d->container.transfer_characteristics : 2; }

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
        cimg_hdr_to_srgb8(row, d->toned + (size_t)y * w * 4, (size_t)w, transfer(d), primaries(d) == 9);
    }
    free(row);
    d->pixels = d->toned;
    d->stride = w * 4;
    return 0;
}

/// The decoded 8-bit planes R, G and B kept, for cimg_heif_row to interleave.
static int planar(cimg_heif *d, uint32_t *width, uint32_t *height) {
    int w = heif.imageWidth(d->image, heif_channel_R), h = heif.imageHeight(d->image, heif_channel_R);
    static const enum heif_channel channels[3] = {heif_channel_R, heif_channel_G, heif_channel_B};
    for (int c = 0; c < 3; c++) {
        d->planes[c] = heif.plane(d->image, channels[c], &d->strides[c]);
        if (!d->planes[c] || heif.planeBits(d->image, channels[c]) != 8 || d->strides[c] < w ||
            heif.imageWidth(d->image, channels[c]) != w || heif.imageHeight(d->image, channels[c]) != h) {
            snprintf(d->message, sizeof d->message, "no 8-bit RGB planes");
            return -1;
        }
    }
    if (w <= 0 || h <= 0 || !(d->row = malloc((size_t)w * 4))) {
        snprintf(d->message, sizeof d->message, w <= 0 || h <= 0 ? "no size" : "out of memory");
        return -1;
    }
    *width = (uint32_t)(d->width = w);
    *height = (uint32_t)(d->height = h);
    return 0;
}

int cimg_heif_decode(cimg_heif *d, uint32_t *width, uint32_t *height) {
    if (!d->handle) return -1;
    int hdr = (transfer(d) == CIMG_TRANSFER_PQ || transfer(d) == CIMG_TRANSFER_HLG) && heif.lumaBits(d->handle) > 8;
    // An 8-bit picture with no alpha comes as the planes libheif makes
    // first anyway: its rows are interleaved here, as they are read (not
    // 48 MB at once for 12 MP). Unless it is a grid, our HEVC decoder makes
    // those planes itself (hevc_plugin.c); libheif, the rest.
    int eight = heif.lumaBits(d->handle) == 8 && heif.chromaBits(d->handle) == 8 && !heif.hasAlpha(d->handle);
    cimg_hevc_begin(eight && d->tiles == 0, d->has_nclx ? &d->container : NULL);
    // Transformations (irot, imir, clap) applied, as the default options say.
    struct heif_error e = heif.decode(d->handle, &d->image, heif_colorspace_RGB,
                                      hdr     ? heif_chroma_interleaved_RRGGBBAA_LE
                                      : eight ? heif_chroma_444
                                              : heif_chroma_interleaved_RGBA,
                                      NULL);
    cimg_hevc_end();
    if (e.code != heif_error_Ok) return failed(d, e);
    if (eight) return planar(d, width, height);
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

const uint8_t *cimg_heif_row(cimg_heif *d, uint32_t y) {
    if (!d->row) return d->pixels ? d->pixels + (size_t)y * (size_t)d->stride : NULL;
    if (y >= (uint32_t)d->height) return NULL;
    int w = d->width;
    const uint8_t *r = d->planes[0] + (size_t)y * d->strides[0], *g = d->planes[1] + (size_t)y * d->strides[1];
    const uint8_t *b = d->planes[2] + (size_t)y * d->strides[2];
    for (int x = 0; x < w; x++) {
        d->row[4 * x] = r[x];
        d->row[4 * x + 1] = g[x];
        d->row[4 * x + 2] = b[x];
        d->row[4 * x + 3] = 255;
    }
    return d->row;
}

int cimg_heif_icc(cimg_heif *d, const uint8_t **profile, size_t *length) {
    if (!d->handle) return -1;
    enum heif_color_profile_type type = heif.profileType(d->handle);
    if (type != heif_color_profile_type_prof && type != heif_color_profile_type_rICC) {
        // nclx: its primaries and transfer (HDR as tone-mapped).
        if (!d->icc && cimg_icc_cicp(primaries(d), transfer(d), &d->icc, &d->icc_size) != 0) return -1;
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
    free(d->row);
    free(d->data);
    free(d);
}
