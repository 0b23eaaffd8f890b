// HEIF/HEIC through libheif, opened on first use (dlopen) as libavif is:
// libheif brings libde265 and its encoders' libraries, which a start that
// shows no HEIC should not load. Only the header comes from libheif-dev.
#include "CImageShim.h"
#include "dl_table.h"
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

/// libde265 with two workers in place of libheif's one (hevc_plugin.c),
/// when this libheif has every function it needs.
static void register_hevc(void *library) {
    struct cimg_hevc_heif f;
    char ignored[128];
#define NEED(field, name) \
    if (!cimg_dl_find(library, name, (void **)&f.field, "libheif", ignored, sizeof ignored)) return;
    NEED(create, "heif_image_create")
    NEED(addPlane, "heif_image_add_plane")
    NEED(plane, "heif_image_get_plane")
    NEED(release, "heif_image_release")
    NEED(nclxAlloc, "heif_nclx_color_profile_alloc")
    NEED(setPrimaries, "heif_nclx_color_profile_set_color_primaries")
    NEED(setTransfer, "heif_nclx_color_profile_set_transfer_characteristics")
    NEED(setMatrix, "heif_nclx_color_profile_set_matrix_coefficients")
    NEED(setNclx, "heif_image_set_nclx_color_profile")
    NEED(nclxFree, "heif_nclx_color_profile_free")
    NEED(registerDecoder, "heif_register_decoder_plugin")
#undef NEED
    cimg_hevc_register(&f);
}

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
    register_hevc(library);
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
    const uint8_t *planes[4]; // else 8-bit planes R, G, B and alpha (NULL: none),
    int strides[4];           // interleaved a row at a time into `row`
    uint8_t *row;
    uint8_t *icc;
    size_t icc_size;
    int primaries, transfer;  // nclx's, else 2 (unspecified)
    struct heif_color_profile_nclx container;  // the nclx box, when `has_nclx`
    int has_nclx;
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

static uint32_t be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }
static uint32_t be32(const uint8_t *p) { return be16(p) << 16 | be16(p + 2); }

/// The box at `at` in [at, end): its size (0 when none fits there), its
/// type and its header's length (8, or 16 for a 64-bit size).
static size_t box_at(const uint8_t *p, size_t at, size_t end, uint32_t *type, size_t *header) {
    if (at > end || end - at < 8) return 0;
    uint64_t size = be32(p + at);
    *type = be32(p + at + 4);
    *header = 8;
    if (size == 1) {
        if (end - at < 16) return 0;
        size = (uint64_t)be32(p + at + 8) << 32 | be32(p + at + 12);
        *header = 16;
    } else if (size == 0) {
        size = end - at;
    }
    return size < *header || size > end - at ? 0 : (size_t)size;
}

#define FOURCC(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

/// How many items the file holds ('iinf'), and how many images the
/// primary item joins ('dimg' references in 'iref': a grid's tiles), read
/// from the boxes before libheif parses them: libheif 1.15 takes 8 s over
/// a file of 20,000 items, and half a minute more to decode a grid of as
/// many tiny tiles. What cannot be read counts as 0 (libheif reports it).
static void count_items(const uint8_t *p, size_t n, uint32_t *items, uint32_t *tiles) {
    uint32_t type = 0, primary = 0;
    size_t header, size, meta = 0, meta_end = 0;
    *items = *tiles = 0;
    for (size_t at = 0; (size = box_at(p, at, n, &type, &header)); at += size) {
        if (type == FOURCC('m', 'e', 't', 'a')) {
            meta = at + header + 4;  // a full box: version and flags
            meta_end = at + size;
            break;
        }
    }
    if (!meta_end) return;
    for (size_t at = meta; (size = box_at(p, at, meta_end, &type, &header)); at += size) {
        const uint8_t *body = p + at + header;
        if (type == FOURCC('p', 'i', 't', 'm') && size >= header + 6 && (body[0] == 0 || size >= header + 8)) {
            primary = body[0] == 0 ? be16(body + 4) : be32(body + 4);
        } else if (type == FOURCC('i', 'i', 'n', 'f') && size >= header + 8) {
            *items = body[0] == 0 ? be16(body + 4) : be32(body + 4);
        }
    }
    for (size_t at = meta; (size = box_at(p, at, meta_end, &type, &header)); at += size) {
        if (type != FOURCC('i', 'r', 'e', 'f') || size < header + 4) continue;
        int wide = p[at + header] != 0;  // version 1: 32-bit item IDs
        size_t end = at + size, child;
        uint32_t kind;
        for (size_t r = at + header + 4; (child = box_at(p, r, end, &kind, &header)); r += child) {
            const uint8_t *ref = p + r + header;
            size_t need = wide ? 6 : 4;
            if (kind != FOURCC('d', 'i', 'm', 'g') || child < header + need) continue;
            uint32_t from = wide ? be32(ref) : be16(ref);
            if (from == primary) *tiles += be16(ref + (wide ? 4 : 2));
            if (*tiles >= 1u << 24) return;  // enough to refuse; no overflow
        }
    }
}

int cimg_heif_count(const cimg_heif *d, uint32_t *items, uint32_t *tiles) {
    if (!d->data) return -1;
    count_items(d->data, d->size, items, tiles);
    return 0;
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

/// The decoded 8-bit planes kept, for cimg_heif_row to interleave.
static int planar(cimg_heif *d, uint32_t *width, uint32_t *height) {
    int w = heif.imageWidth(d->image, heif_channel_R), h = heif.imageHeight(d->image, heif_channel_R);
    static const enum heif_channel channels[4] = {heif_channel_R, heif_channel_G, heif_channel_B, heif_channel_Alpha};
    for (int c = 0; c < 4; c++) {
        d->planes[c] = heif.plane(d->image, channels[c], &d->strides[c]);
        int whole = d->planes[c] && heif.imageWidth(d->image, channels[c]) == w &&
                    heif.imageHeight(d->image, channels[c]) == h && d->strides[c] >= w;
        if (!whole && (c < 3 || d->planes[c])) {
            snprintf(d->message, sizeof d->message, "no RGB planes");
            return -1;
        }
    }
    if (w <= 0 || h <= 0 || !(d->row = malloc((size_t)w * 4))) {
        snprintf(d->message, sizeof d->message, w <= 0 || h <= 0 ? "no size" : "out of memory");
        return -1;
    }
    *width = (uint32_t)w;
    *height = (uint32_t)h;
    return 0;
}

int cimg_heif_decode(cimg_heif *d, uint32_t *width, uint32_t *height) {
    if (!d->handle) return -1;
    int hdr = (d->transfer == CIMG_TRANSFER_PQ || d->transfer == CIMG_TRANSFER_HLG) && heif.lumaBits(d->handle) > 8;
    // Our HEVC decoder makes the RGB planes itself for an 8-bit picture
    // with no grid and no alpha (hevc_plugin.c); libheif, the rest.
    uint32_t items = 0, tiles = 0;
    count_items(d->data, d->size, &items, &tiles);
    int rgb = !hdr && tiles == 0 && !heif.hasAlpha(d->handle) && heif.lumaBits(d->handle) == 8 &&
              heif.chromaBits(d->handle) == 8;
    // 8-bit pictures come as the planes libheif makes first anyway: the rows
    // are interleaved here, as they are read (not 48 MB at once for 12 MP).
    int eight = !hdr && heif.lumaBits(d->handle) == 8 && heif.chromaBits(d->handle) == 8;
    cimg_hevc_begin(rgb, d->has_nclx ? &d->container : NULL);
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
    int w = heif.imageWidth(d->image, heif_channel_R);
    const uint8_t *r = d->planes[0] + (size_t)y * d->strides[0], *g = d->planes[1] + (size_t)y * d->strides[1];
    const uint8_t *b = d->planes[2] + (size_t)y * d->strides[2];
    const uint8_t *a = d->planes[3] ? d->planes[3] + (size_t)y * d->strides[3] : NULL;
    for (int x = 0; x < w; x++) {
        d->row[4 * x] = r[x];
        d->row[4 * x + 1] = g[x];
        d->row[4 * x + 2] = b[x];
        d->row[4 * x + 3] = a ? a[x] : 255;
    }
    return d->row;
}

int cimg_heif_icc(cimg_heif *d, const uint8_t **profile, size_t *length) {
    if (!d->handle) return -1;
    enum heif_color_profile_type type = heif.profileType(d->handle);
    if (type != heif_color_profile_type_prof && type != heif_color_profile_type_rICC) {
        // nclx: its primaries and transfer (HDR as tone-mapped).
        if (!d->icc && cimg_icc_cicp(d->primaries, d->transfer, &d->icc, &d->icc_size) != 0) return -1;
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
