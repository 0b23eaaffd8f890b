// libheif's HEVC decoder again, with two worker threads instead of one.
//
// libheif 1.15 starts libde265 with a single worker, so a HEIC that is one
// coded picture (as heif-enc and most cameras but Apple's write it) decodes
// on one core, though x265 writes it with wavefronts (WPP) that let rows
// of coding blocks decode side by side. libde265 takes 80 % of a 12 MP
// HEIC's time; with two workers it decodes in 0.6x the time. libheif lets
// a program register its own decoder; this one does what libheif's own
// libde265 plugin does (the same NAL units pushed, the same planes and the
// same nclx from the stream's VUI), so the pixels are the same, and wins by
// priority. libde265 is already loaded as libheif's dependency; its few
// entry points are declared here as de265.h (1.0.7+) declares them. When
// any is missing nothing is registered and libheif's own plugin decodes.
//
// It also does the first step libheif takes after it: YCbCr to planar RGB
// (ycbcr_rgb.c: libheif 1.15's float formula, bit for bit), on two
// threads, where libheif would take 100 ms of one core on 12 MP. heif_shim.c
// asks for that (cimg_hevc_begin) only for an 8-bit picture that is no
// grid and has no alpha, naming the container's nclx, which libheif
// prefers to the stream's; otherwise the planes go to libheif as YCbCr.
#include "dl_table.h"
#include "hevc_plugin.h"
#include "ycbcr_rgb.h"
#include <libheif/heif_plugin.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

enum { DE265_OK = 0, WORKERS = 2, PRIORITY = 120 };

static struct {
    void *(*newDecoder)(void);
    int (*startWorkers)(void *, int);
    int (*freeDecoder)(void *);
    int (*pushNAL)(void *, const void *, int, int64_t, void *);
    int (*flush)(void *);
    int (*decode)(void *, int *);
    const void *(*nextPicture)(void *);
    void (*releaseNext)(void *);
    int (*width)(const void *, int);
    int (*height)(const void *, int);
    int (*chroma)(const void *);
    int (*bits)(const void *, int);
    const uint8_t *(*plane)(const void *, int, int *);
    int (*primaries)(const void *);
    int (*transfer)(const void *);
    int (*matrix)(const void *);
    int (*fullRange)(const void *);
} de265;

/// libheif's functions the decoder calls, found in the library heif_shim.c opened.
static struct {
    struct heif_error (*create)(int, int, enum heif_colorspace, enum heif_chroma, struct heif_image **);
    struct heif_error (*addPlane)(struct heif_image *, enum heif_channel, int, int, int);
    uint8_t *(*plane)(struct heif_image *, enum heif_channel, int *);
    void (*release)(const struct heif_image *);
    struct heif_color_profile_nclx *(*nclxAlloc)(void);
    struct heif_error (*setPrimaries)(struct heif_color_profile_nclx *, uint16_t);
    struct heif_error (*setTransfer)(struct heif_color_profile_nclx *, uint16_t);
    struct heif_error (*setMatrix)(struct heif_color_profile_nclx *, uint16_t);
    struct heif_error (*setNclx)(struct heif_image *, const struct heif_color_profile_nclx *);
    void (*nclxFree)(struct heif_color_profile_nclx *);
    struct heif_error (*registerDecoder)(const struct heif_decoder_plugin *);
} heif;

/// Pictures made RGB here, for the tests to see that this path ran.
static atomic_ulong converted;

unsigned long cimg_hevc_rgb_pictures(void) { return atomic_load(&converted); }

/// What heif_shim.c asks of the decode it runs between cimg_hevc_begin and
/// cimg_hevc_end, on this thread. libheif 1.15 decodes a single picture
/// on the caller's thread; a grid's tiles, on threads of its own, see the
/// default (YCbCr, converted by libheif), which is right for them anyway.
static _Thread_local struct {
    int rgb;                 // planar RGB wanted
    int container;           // the container's nclx is below
    int matrix, full_range;  // its matrix coefficients and range
} asked;

void cimg_hevc_begin(int rgb, const struct heif_color_profile_nclx *container) {
    asked.rgb = rgb;
    asked.container = container != NULL;
    asked.matrix = container ? (int)container->matrix_coefficients : 2;
    asked.full_range = container ? container->full_range_flag != 0 : 0;
}

void cimg_hevc_end(void) { asked.rgb = 0; }

static const char *name(void) { return "libde265 HEVC decoder, two workers (urlcache)"; }
static void nothing(void) {}
static void strict(void *decoder, int flag) { (void)decoder, (void)flag; }
static int supports(enum heif_compression_format format) { return format == heif_compression_HEVC ? PRIORITY : 0; }

static struct heif_error result(enum heif_error_code code, enum heif_suberror_code sub, const char *message) {
    return (struct heif_error){code, sub, message};
}
#define OK result(heif_error_Ok, heif_suberror_Unspecified, "Success")

static struct heif_error new_decoder(void **decoder) {
    void *context = de265.newDecoder();
    if (!context) return result(heif_error_Memory_allocation_error, heif_suberror_Unspecified, "libde265");
    // With no workers libde265 decodes on the calling thread; a pool it
    // could not start would leave it waiting on none.
    if (de265.startWorkers(context, WORKERS) != DE265_OK) {
        de265.freeDecoder(context);
        if (!(context = de265.newDecoder()))
            return result(heif_error_Memory_allocation_error, heif_suberror_Unspecified, "libde265");
    }
    *decoder = context;
    return OK;
}

static void free_decoder(void *decoder) { de265.freeDecoder(decoder); }

/// libheif hands the stream as NAL units, each after a 4-byte length.
static struct heif_error push(void *decoder, const void *data, size_t size) {
    const uint8_t *p = data;
    for (size_t at = 0; at < size;) {
        if (size - at < 4) return result(heif_error_Decoder_plugin_error, heif_suberror_End_of_data, "");
        uint32_t length = (uint32_t)p[at] << 24 | (uint32_t)p[at + 1] << 16 | (uint32_t)p[at + 2] << 8 | p[at + 3];
        at += 4;
        if (length > size - at || length > INT32_MAX) {
            return result(heif_error_Decoder_plugin_error, heif_suberror_End_of_data, "");
        }
        de265.pushNAL(decoder, p + at, (int)length, 0, NULL);
        at += length;
    }
    return OK;
}

/// The picture as planar 8-bit RGB in a new heif_image, when heif_shim.c
/// asked for it and libheif would convert it by the float formula: 1, or
/// 0 to hand it over as YCbCr (`*e` set when making the image failed).
static int as_rgb(const void *picture, int chroma, struct heif_image **out, struct heif_error *e) {
    struct cimg_ycbcr in = {.width = de265.width(picture, 0)};
    int matrix = asked.container ? asked.matrix : de265.matrix(picture);
    in.full_range = asked.container ? asked.full_range : de265.fullRange(picture) != 0;
    if (!asked.rgb || chroma == heif_chroma_monochrome || !cimg_ycbcr_factors(matrix, in.f)) return 0;
    for (int c = 0; c < 3; c++)
        if (de265.bits(picture, c) != 8) return 0;
    in.h_shift = chroma == heif_chroma_444 ? 0 : 1;
    in.v_shift = chroma == heif_chroma_420 ? 1 : 0;
    in.y = de265.plane(picture, 0, &in.y_stride);
    in.cb = de265.plane(picture, 1, &in.cb_stride);
    in.cr = de265.plane(picture, 2, &in.cr_stride);
    int height = de265.height(picture, 0);
    *e = heif.create(in.width, height, heif_colorspace_RGB, heif_chroma_444, out);
    for (int c = heif_channel_R; !e->code && c <= heif_channel_B; c++)
        *e = heif.addPlane(*out, (enum heif_channel)c, in.width, height, 8);
    struct cimg_rgb_planes rgb = {NULL, NULL, NULL, 0, 0, 0};
    if (!e->code) {
        rgb.r = heif.plane(*out, heif_channel_R, &rgb.r_stride);
        rgb.g = heif.plane(*out, heif_channel_G, &rgb.g_stride);
        rgb.b = heif.plane(*out, heif_channel_B, &rgb.b_stride);
    }
    if (!e->code && (!in.y || !in.cb || !in.cr || !rgb.r || !rgb.g || !rgb.b || cimg_ycbcr_to_rgb(&in, &rgb, height) != 0))
        *e = result(heif_error_Memory_allocation_error, heif_suberror_Unspecified, "no planes or no memory for a row");
    if (e->code && *out) {
        heif.release(*out);
        *out = NULL;
    }
    if (!e->code) atomic_fetch_add(&converted, 1);
    return 1;
}

static struct heif_error describe(const void *picture, struct heif_image *image);

/// The decoded picture's planes copied into a new heif_image, with the
/// stream's colour description beside them.
static struct heif_error convert(const void *picture, struct heif_image **out) {
    int chroma = de265.chroma(picture);  // de265_chroma and heif_chroma agree: 0 is 4:0:0
    int planes = chroma == heif_chroma_monochrome ? 1 : 3;
    struct heif_error e = OK;
    if (as_rgb(picture, chroma, out, &e)) return e.code ? e : describe(picture, *out);
    e = heif.create(de265.width(picture, 0), de265.height(picture, 0),
                    planes == 1 ? heif_colorspace_monochrome : heif_colorspace_YCbCr, (enum heif_chroma)chroma, out);
    if (e.code) return e;
    int bits = de265.bits(picture, 0);
    for (int c = 0; c < planes; c++) {
        int width = de265.width(picture, c), height = de265.height(picture, c), stride = 0, to = 0;
        if (de265.bits(picture, c) != bits) {
            e = result(heif_error_Unsupported_feature, heif_suberror_Unsupported_color_conversion,
                       "Channels with different number of bits per pixel are not supported");
        } else if (width <= 0 || height <= 0) {
            e = result(heif_error_Decoder_plugin_error, heif_suberror_Invalid_image_size, "");
        } else {
            e = heif.addPlane(*out, (enum heif_channel)c, width, height, bits);
        }
        const uint8_t *from = e.code ? NULL : de265.plane(picture, c, &stride);
        uint8_t *into = from ? heif.plane(*out, (enum heif_channel)c, &to) : NULL;
        if (!into) {
            heif.release(*out);
            *out = NULL;
            return e.code ? e : result(heif_error_Decoder_plugin_error, heif_suberror_Unspecified, "no plane");
        }
        for (int y = 0; y < height; y++) memcpy(into + (size_t)y * to, from + (size_t)y * stride, (size_t)width * ((bits + 7) / 8));
    }
    return describe(picture, *out);
}

/// The stream's colour description set on `image`, as libheif's plugin
/// sets it (the container's nclx, if any, replaces it afterwards).
static struct heif_error describe(const void *picture, struct heif_image *image) {
    struct heif_color_profile_nclx *nclx = heif.nclxAlloc();
    if (nclx) {
        // As libheif's plugin does: a value the setter refuses is left as it was.
        heif.setPrimaries(nclx, (uint16_t)de265.primaries(picture));
        heif.setTransfer(nclx, (uint16_t)de265.transfer(picture));
        heif.setMatrix(nclx, (uint16_t)de265.matrix(picture));
        nclx->full_range_flag = (uint8_t)(de265.fullRange(picture) != 0);
        heif.setNclx(image, nclx);
        heif.nclxFree(nclx);
    }
    return OK;
}

/// libde265 1.0's loop: decode until it wants no more, keeping the last
/// picture (a HEIF item holds one).
static struct heif_error decode(void *decoder, struct heif_image **out) {
    struct heif_error e = OK;
    *out = NULL;
    de265.flush(decoder);
    int more;
    do {
        more = 0;
        if (de265.decode(decoder, &more) != DE265_OK) break;
        const void *picture = de265.nextPicture(decoder);
        if (!picture) continue;
        if (*out) heif.release(*out);
        *out = NULL;
        e = convert(picture, out);
        de265.releaseNext(decoder);
        if (e.code) return e;
    } while (more);
    return e;
}

static const struct heif_decoder_plugin plugin = {
    3, name, nothing, nothing, supports, new_decoder, free_decoder, push, decode, strict, "urlcache-libde265",
};

#define FIND(table, library, field, symbol) \
    if (!cimg_dl_find(library, symbol, (void **)&table.field, #library, error, sizeof error)) return;

void cimg_hevc_register(void *libheif) {
    static const char *const names[] = {"libde265.so.0", NULL};
    char error[128];
    FIND(heif, libheif, create, "heif_image_create")
    FIND(heif, libheif, addPlane, "heif_image_add_plane")
    FIND(heif, libheif, plane, "heif_image_get_plane")
    FIND(heif, libheif, release, "heif_image_release")
    FIND(heif, libheif, nclxAlloc, "heif_nclx_color_profile_alloc")
    FIND(heif, libheif, setPrimaries, "heif_nclx_color_profile_set_color_primaries")
    FIND(heif, libheif, setTransfer, "heif_nclx_color_profile_set_transfer_characteristics")
    FIND(heif, libheif, setMatrix, "heif_nclx_color_profile_set_matrix_coefficients")
    FIND(heif, libheif, setNclx, "heif_image_set_nclx_color_profile")
    FIND(heif, libheif, nclxFree, "heif_nclx_color_profile_free")
    FIND(heif, libheif, registerDecoder, "heif_register_decoder_plugin")
    void *libde265 = cimg_dl_open(names, "libde265", error, sizeof error);
    if (!libde265) return;
    FIND(de265, libde265, newDecoder, "de265_new_decoder")
    FIND(de265, libde265, startWorkers, "de265_start_worker_threads")
    FIND(de265, libde265, freeDecoder, "de265_free_decoder")
    FIND(de265, libde265, pushNAL, "de265_push_NAL")
    FIND(de265, libde265, flush, "de265_flush_data")
    FIND(de265, libde265, decode, "de265_decode")
    FIND(de265, libde265, nextPicture, "de265_get_next_picture")
    FIND(de265, libde265, releaseNext, "de265_release_next_picture")
    FIND(de265, libde265, width, "de265_get_image_width")
    FIND(de265, libde265, height, "de265_get_image_height")
    FIND(de265, libde265, chroma, "de265_get_chroma_format")
    FIND(de265, libde265, bits, "de265_get_bits_per_pixel")
    FIND(de265, libde265, plane, "de265_get_image_plane")
    FIND(de265, libde265, primaries, "de265_get_image_colour_primaries")
    FIND(de265, libde265, transfer, "de265_get_image_transfer_characteristics")
    FIND(de265, libde265, matrix, "de265_get_image_matrix_coefficients")
    FIND(de265, libde265, fullRange, "de265_get_image_full_range_flag")
    heif.registerDecoder(&plugin);
}
#undef FIND
