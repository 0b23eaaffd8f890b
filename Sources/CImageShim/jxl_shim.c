// JPEG XL through libjxl, opened on first use (dlopen) as libavif and
// libheif are: a start that shows no JPEG XL never loads it. Stills and
// animations alike: libjxl coalesces each frame onto the canvas itself
// (blending and disposal done), so every frame is a whole canvas.
#include "CImageShim.h"
#include <jxl/decode.h>
#include <jxl/encode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jxl_internal.h"

struct cimg_jxl {
    JxlDecoder *decoder;
    uint8_t *data;
    size_t size;
    JxlBasicInfo info;
    JxlPixelFormat format;
    uint8_t *canvas;
    size_t canvas_size;
    uint8_t *icc;
    size_t icc_size;
    int hdr;          // PQ or HLG: the canvas is 16-bit, tone-mapped into `toned`
    int bt2020;
    uint8_t *toned;
    uint32_t ticks;  // the last frame's duration
    void *runner;
    int ended;
    char message[256];
};

static const int events = JXL_DEC_BASIC_INFO | JXL_DEC_COLOR_ENCODING | JXL_DEC_FRAME | JXL_DEC_FULL_IMAGE;

cimg_jxl *cimg_jxl_open(FILE *file, size_t max_bytes) {
    if (cimg_jxl_load() != 0) return NULL;
    cimg_jxl *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    if (cimg_read_whole(file, max_bytes, &d->data, &d->size) != 0) {
        snprintf(d->message, sizeof d->message, "file over %zu bytes", max_bytes);
    }
    if (!d->data || !(d->decoder = jxl.create(NULL))) {
        free(d->data);
        free(d);
        return NULL;
    }
    d->format = (JxlPixelFormat){4, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0};
    if (jxl.runnerCreate && jxl.runnerDestroy && jxl.runner && jxl.defaultThreads) {
        size_t threads = jxl.defaultThreads();
        d->runner = jxl.runnerCreate(NULL, threads > 8 ? 8 : threads);
        if (d->runner && jxl.setRunner(d->decoder, jxl.runner, d->runner) != JXL_DEC_SUCCESS) {
            jxl.runnerDestroy(d->runner);
            d->runner = NULL;
        }
    }
    return d;
}

static int start(cimg_jxl *d) {
    if (jxl.subscribe(d->decoder, events) != JXL_DEC_SUCCESS ||
        jxl.setInput(d->decoder, d->data, d->size) != JXL_DEC_SUCCESS) {
        snprintf(d->message, sizeof d->message, "cannot start the decoder");
        return -1;
    }
    jxl.closeInput(d->decoder);
    d->ended = 0;
    return 0;
}

static int fail(cimg_jxl *d, JxlDecoderStatus status) {
    if (!d->message[0]) {
        snprintf(d->message, sizeof d->message,
                 status == JXL_DEC_NEED_MORE_INPUT ? "file is truncated" : "libjxl could not decode it");
    }
    return -1;
}

/// An XYB-coded picture (any lossy one) is asked for as sRGB, which libjxl
/// makes itself. Only then: libjxl 0.7 writes to stderr when asked early,
/// or for a picture kept in its original space. An HDR picture (PQ or HLG)
/// is asked for in its own encoding, at 16 bits, and tone-mapped here.
static void prefer_srgb(cimg_jxl *d) {
    JxlColorEncoding original;
    if (jxl.encodedProfile(d->decoder, NULL, JXL_COLOR_PROFILE_TARGET_ORIGINAL, &original) == JXL_DEC_SUCCESS &&
        original.color_space == JXL_COLOR_SPACE_RGB &&
        (original.transfer_function == JXL_TRANSFER_FUNCTION_PQ ||
         original.transfer_function == JXL_TRANSFER_FUNCTION_HLG)) {
        d->hdr = (int)original.transfer_function;
        d->bt2020 = original.primaries == JXL_PRIMARIES_2100;
        d->format.data_type = JXL_TYPE_UINT16;
        if (!d->info.uses_original_profile) jxl.preferred(d->decoder, &original);
        return;
    }
    if (d->info.uses_original_profile) return;
    JxlColorEncoding srgb;
    jxl.toSRGB(&srgb, JXL_FALSE);
    jxl.preferred(d->decoder, &srgb);
}

/// The profile of the pixels delivered: none when they are sRGB (libjxl
/// turns an XYB picture into the sRGB asked for); else its ICC, for lcms2.
/// A tone-mapped HDR picture is in sRGB's curve, in BT.709's primaries
/// when it came in BT.2020's, else in its own (Display P3's, say).
static void take_profile(cimg_jxl *d) {
    JxlColorEncoding encoding;
    int known = jxl.encodedProfile(d->decoder, NULL, JXL_COLOR_PROFILE_TARGET_DATA, &encoding) == JXL_DEC_SUCCESS;
    if (d->hdr) {
        free(d->icc);
        d->icc = NULL;
        // JPEG XL's primaries as H.273's (its P3 is Display P3).
        int primaries = !known ? 1 : encoding.primaries == JXL_PRIMARIES_P3 ? 12 : (int)encoding.primaries;
        if (cimg_icc_cicp(primaries, d->hdr, &d->icc, &d->icc_size) != 0) d->icc = NULL;
        return;
    }
    if (known && encoding.color_space == JXL_COLOR_SPACE_RGB && encoding.primaries == JXL_PRIMARIES_SRGB &&
        encoding.white_point == JXL_WHITE_POINT_D65 && encoding.transfer_function == JXL_TRANSFER_FUNCTION_SRGB)
        return;
    size_t size = 0;
    if (jxl.iccSize(d->decoder, NULL, JXL_COLOR_PROFILE_TARGET_DATA, &size) != JXL_DEC_SUCCESS || size == 0 ||
        size > (16u << 20))
        return;
    free(d->icc);
    d->icc = malloc(size);
    if (d->icc && jxl.icc(d->decoder, NULL, JXL_COLOR_PROFILE_TARGET_DATA, d->icc, size) == JXL_DEC_SUCCESS) {
        d->icc_size = size;
    } else {
        free(d->icc);
        d->icc = NULL;
    }
}

static int read_header(cimg_jxl *d, uint32_t *width, uint32_t *height, int *animated, uint32_t *loops) {
    if (d->message[0] || start(d) != 0) return -1;
    for (;;) {
        JxlDecoderStatus status = jxl.process(d->decoder);
        if (status == JXL_DEC_BASIC_INFO) {
            if (jxl.basicInfo(d->decoder, &d->info) != JXL_DEC_SUCCESS) return fail(d, status);
            *width = d->info.xsize;
            *height = d->info.ysize;
            *animated = d->info.have_animation ? 1 : 0;
            *loops = d->info.have_animation ? d->info.animation.num_loops : 0;
        } else if (status == JXL_DEC_COLOR_ENCODING) {
            prefer_srgb(d);
            take_profile(d);
            return 0;
        } else {
            return fail(d, status);
        }
    }
}

static int next_frame(cimg_jxl *d, double *seconds) {
    if (d->ended) return 1;
    if (!d->canvas) {
        if (jxl.outSize(d->decoder, &d->format, &d->canvas_size) != JXL_DEC_SUCCESS ||
            d->canvas_size != (size_t)d->info.xsize * d->info.ysize * (d->hdr ? 8 : 4) ||
            !(d->canvas = malloc(d->canvas_size)) ||
            (d->hdr && !(d->toned = malloc((size_t)d->info.xsize * d->info.ysize * 4)))) {
            snprintf(d->message, sizeof d->message, "no canvas");
            return -1;
        }
    }
    for (;;) {
        JxlDecoderStatus status = jxl.process(d->decoder);
        switch (status) {
        case JXL_DEC_FRAME: {
            JxlFrameHeader header;
            d->ticks = jxl.frameHeader(d->decoder, &header) == JXL_DEC_SUCCESS ? header.duration : 0;
            break;
        }
        case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
            if (jxl.setOut(d->decoder, &d->format, d->canvas, d->canvas_size) != JXL_DEC_SUCCESS) return fail(d, status);
            break;
        case JXL_DEC_FULL_IMAGE: {
            if (d->hdr) {
                cimg_hdr_to_srgb8((const uint16_t *)d->canvas, d->toned, (size_t)d->info.xsize * d->info.ysize,
                                  d->hdr, d->bt2020);
            }
            const JxlAnimationHeader *a = &d->info.animation;
            *seconds = d->info.have_animation && a->tps_numerator
                           ? (double)d->ticks * a->tps_denominator / a->tps_numerator
                           : 0;
            return 0;
        }
        case JXL_DEC_SUCCESS:
            d->ended = 1;
            return 1;
        default:
            return fail(d, status);
        }
    }
}

const uint8_t *cimg_jxl_row(const cimg_jxl *d, uint32_t y) {
    const uint8_t *pixels = d->hdr ? d->toned : d->canvas;
    return pixels && y < d->info.ysize ? pixels + (size_t)y * d->info.xsize * 4 : NULL;
}

static int rewind_frames(cimg_jxl *d) {
    jxl.rewind(d->decoder);
    if (start(d) != 0) return -1;
    // Past the header again, to where the frames start.
    for (;;) {
        JxlDecoderStatus status = jxl.process(d->decoder);
        if (status == JXL_DEC_BASIC_INFO) {
            continue;
        } else if (status == JXL_DEC_COLOR_ENCODING) {
            prefer_srgb(d);
            return 0;
        } else {
            return fail(d, status);
        }
    }
}

int cimg_jxl_icc(cimg_jxl *d, const uint8_t **profile, size_t *length) {
    if (!d->icc) return -1;
    *profile = d->icc;
    *length = d->icc_size;
    return 0;
}

const char *cimg_jxl_message(const cimg_jxl *d) { return d->message; }

void cimg_jxl_close(cimg_jxl *d) {
    if (!d) return;
    if (d->decoder) jxl.destroy(d->decoder);
    if (d->runner) jxl.runnerDestroy(d->runner);
    free(d->canvas);
    free(d->icc);
    free(d->toned);
    free(d->data);
    free(d);
}

int cimg_jxl_read_header(cimg_jxl *d, uint32_t *width, uint32_t *height, int *animated, uint32_t *loops) {
    int saved = jxl_quiet_begin();
    int result = read_header(d, width, height, animated, loops);
    jxl_quiet_end(saved);
    return result;
}

int cimg_jxl_next_frame(cimg_jxl *d, double *seconds) {
    int saved = jxl_quiet_begin();
    int result = next_frame(d, seconds);
    jxl_quiet_end(saved);
    return result;
}

int cimg_jxl_rewind(cimg_jxl *d) {
    int saved = jxl_quiet_begin();
    int result = rewind_frames(d);
    jxl_quiet_end(saved);
    return result;
}
