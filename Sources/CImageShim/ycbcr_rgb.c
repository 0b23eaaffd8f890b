// YCbCr to RGB as libheif 1.15 does it for 8-bit pictures (its
// heif_colorconversion.cc and nclx.cc), bit for bit: the same float
// operations in the same order, unfused, and its rounding (truncating
// v + 0.5) and clipping. Four pixels at a time with SSE2, which computes
// each exactly as the scalar code does.
#include "ycbcr_rgb.h"
#include "row_halves.h"
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#pragma STDC FP_CONTRACT OFF

int cimg_ycbcr_factors(int matrix, float f[4]) {
    float kr, kb;
    switch (matrix) {
    case 0: case 8: case 12: case 13: return 0;
    case 1: kr = 0.2126f, kb = 0.0722f; break;
    case 4: kr = 0.30f, kb = 0.11f; break;
    case 5: case 6: kr = 0.299f, kb = 0.114f; break;
    case 7: kr = 0.212f, kb = 0.087f; break;
    case 9: case 10: kr = 0.2627f, kb = 0.0593f; break;
    default:  // unspecified and the rest: its defaults
        f[0] = 1.402f, f[1] = -0.344136f, f[2] = -0.714136f, f[3] = 1.772f;
        return 1;
    }
    f[0] = 2 * (-kr + 1);
    f[1] = 2 * kb * (-kb + 1) / (kb + kr - 1);
    f[2] = 2 * kr * (-kr + 1) / (kb + kr - 1);
    f[3] = 2 * (-kb + 1);
    return 1;
}

/// libheif's clip_f_u16 at 8 bits.
static uint8_t clip(float v) {
    long x = (long)(v + 0.5f);
    return (uint8_t)(x < 0 ? 0 : x > 255 ? 255 : x);
}

/// A picture's planes in and out, for the threads that share its rows.
struct conversion {
    const struct cimg_ycbcr *in;
    const struct cimg_rgb_planes *out;
};

/// Each pixel's chroma terms of a row (f[0]·Cr, f[1]·Cb, f[2]·Cr, f[3]·Cb,
/// with Cb and Cr scaled as libheif scales them), into four runs of `width`.
static void chroma_terms(const struct cimg_ycbcr *in, const uint8_t *cb, const uint8_t *cr, float *t) {
    int width = in->width, h = in->h_shift;
    for (int x = 0; x < width; x++) {
        float b = (float)(cb[x >> h] - 128), c = (float)(cr[x >> h] - 128);
        if (!in->full_range) {
            b = b * 1.1429f;
            c = c * 1.1429f;
        }
        t[x] = in->f[0] * c;
        t[width + x] = in->f[1] * b;
        t[2 * width + x] = in->f[2] * c;
        t[3 * width + x] = in->f[3] * b;
    }
}

#if defined(__SSE2__)
/// Four values rounded and clipped as clip() does: truncation of v + 0.5,
/// then the two saturating packs, which clamp to 0...255 as its tests do.
static void store4(uint8_t *out, __m128 v) {
    __m128i i = _mm_cvttps_epi32(_mm_add_ps(v, _mm_set1_ps(0.5f)));
    i = _mm_packus_epi16(_mm_packs_epi32(i, i), i);
    int32_t four = _mm_cvtsi128_si32(i);
    memcpy(out, &four, 4);
}
#endif

/// One row from its luma and chroma terms, libheif's sums in its order:
/// R = Y + t0, G = (Y + t1) + t2, B = Y + t3.
static void rgb_row(const uint8_t *luma, const float *t, int width, int full_range, uint8_t *R, uint8_t *G, uint8_t *B) {
    int x = 0;
#if defined(__SSE2__)
    const __m128 offset = _mm_set1_ps(16.0f), scale = _mm_set1_ps(1.1689f);
    for (; x + 4 <= width; x += 4) {
        int32_t four;
        memcpy(&four, luma + x, 4);
        __m128i wide = _mm_unpacklo_epi8(_mm_cvtsi32_si128(four), _mm_setzero_si128());
        __m128 y = _mm_cvtepi32_ps(_mm_unpacklo_epi16(wide, _mm_setzero_si128()));
        if (!full_range) y = _mm_mul_ps(_mm_sub_ps(y, offset), scale);
        store4(R + x, _mm_add_ps(y, _mm_loadu_ps(t + x)));
        store4(G + x, _mm_add_ps(_mm_add_ps(y, _mm_loadu_ps(t + width + x)), _mm_loadu_ps(t + 2 * width + x)));
        store4(B + x, _mm_add_ps(y, _mm_loadu_ps(t + 3 * width + x)));
    }
#endif
    for (; x < width; x++) {
        float y = (float)luma[x];
        if (!full_range) y = (y - 16.0f) * 1.1689f;
        R[x] = clip(y + t[x]);
        G[x] = clip(y + t[width + x] + t[2 * width + x]);
        B[x] = clip(y + t[3 * width + x]);
    }
}

/// Rows [first, last) of the picture, as libheif's Op_YCbCr_to_RGB<uint8_t>
/// makes them: the chroma sample at (x >> h, y >> v), no interpolation,
/// and the same float operations (SSE2 does them four at a time, alike).
/// -1 when there was no memory for the chroma terms.
static int convert_rows(void *context, int first, int last) {
    const struct conversion *c = context;
    const struct cimg_ycbcr *in = c->in;
    const struct cimg_rgb_planes *out = c->out;
    float *terms = malloc(sizeof(float) * 4 * (size_t)in->width);
    for (int y = first, made = -1; terms && y < last; y++) {
        if (y >> in->v_shift != made) {
            made = y >> in->v_shift;
            chroma_terms(in, in->cb + (size_t)made * in->cb_stride, in->cr + (size_t)made * in->cr_stride, terms);
        }
        rgb_row(in->y + (size_t)y * in->y_stride, terms, in->width, in->full_range, out->r + (size_t)y * out->r_stride,
                out->g + (size_t)y * out->g_stride, out->b + (size_t)y * out->b_stride);
    }
    int made = terms != NULL;
    free(terms);
    return made ? 0 : -1;
}

int cimg_ycbcr_to_rgb(const struct cimg_ycbcr *in, const struct cimg_rgb_planes *out, int height) {
    struct conversion c = {in, out};
    // A second thread for the lower half of a picture of a megapixel or more.
    return cimg_row_halves(height, (size_t)in->width * height >= (1u << 20), convert_rows, &c);
}
