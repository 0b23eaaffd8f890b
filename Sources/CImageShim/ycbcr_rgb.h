// YCbCr to RGB as libheif 1.15 does it for 8-bit pictures, bit for bit:
// hevc_plugin.c hands libheif the RGB planes it would make itself.
// Not part of the module's interface.
#ifndef CIMG_YCBCR_RGB_H
#define CIMG_YCBCR_RGB_H

#include <stdint.h>

/// An 8-bit YCbCr picture: its planes, its chroma subsampling (shifts of
/// 1 for 4:2:0 across and down, 4:2:2 across only), its range, and the
/// factors (Cr to R, Cb and Cr to G, Cb to B) of cimg_ycbcr_factors.
struct cimg_ycbcr {
    const uint8_t *y, *cb, *cr;
    int y_stride, cb_stride, cr_stride;
    int width, h_shift, v_shift, full_range;
    float f[4];
};

struct cimg_rgb_planes {
    uint8_t *r, *g, *b;
    int r_stride, g_stride, b_stride;
};

/// libheif 1.15's factors (nclx.cc) for H.273 matrix coefficients `matrix`:
/// 1, or 0 where it converts otherwise (0, identity; 8, YCgCo; 12 and 13,
/// from the primaries), which is then left to it.
int cimg_ycbcr_factors(int matrix, float f[4]);

/// The picture's `height` rows into `out`, on two threads from a megapixel
/// up: 0, or -1 when there was no memory for a row's chroma terms.
int cimg_ycbcr_to_rgb(const struct cimg_ycbcr *in, const struct cimg_rgb_planes *out, int height);

#endif
