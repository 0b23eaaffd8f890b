#ifndef URLCACHE_CIMG_COLOR_H
#define URLCACHE_CIMG_COLOR_H

// Colour for every decoder: ICC profiles and coded descriptions through
// lcms2 (icc_shim.c, lcms2 opened on first use), and linear light to sRGB
// levels (srgb_levels.c). Part of CImageShim.h.
#include <stddef.h>
#include <stdint.h>

typedef struct cimg_icc cimg_icc;

/// Whether lcms2 could be opened (0) or not (-1): it is looked for on first
/// use, and a machine without it shows pictures as if their profile were sRGB.
int cimg_icc_available(void);
/// Whether the profile names itself sRGB (its description): no transform needed.
int cimg_icc_is_srgb(const uint8_t *profile, size_t length);
/// Whether the profile's header says grey: a decoder gives such a profile
/// only for a grey picture (libpng drops a mismatched one itself).
int cimg_icc_is_grey(const uint8_t *profile, size_t length);
/// A transform from an RGB or grey `profile` to sRGB for rows of RGB8 (channels 3)
/// or RGBA8 (4, alpha copied; a grey profile reads each pixel's first
/// byte); NULL when lcms2 is missing, the profile is damaged (then
/// *damaged is 1, as for a CMYK profile lcms2 can make nothing of) or it
/// is neither RGB nor grey (CMYK: the decoder applies it, through
/// cimg_icc_open_cmyk).
cimg_icc *cimg_icc_open(const uint8_t *profile, size_t length, int channels, int *damaged);
/// Whether the profile's header says CMYK.
int cimg_icc_is_cmyk(const uint8_t *profile, size_t length);
/// A transform from a CMYK `profile` to sRGB, from rows of CMYK8 (0 no ink;
/// `inverted`, 255 no ink, as Adobe writes it) to rows of RGB8 (cimg_icc_convert);
/// NULL when lcms2 is missing or the profile is not a CMYK one it can use.
/// It keeps no state between calls: threads may convert with it at once.
cimg_icc *cimg_icc_open_cmyk(const uint8_t *profile, size_t length, int inverted);
/// Transforms `count` pixels in place.
void cimg_icc_apply(cimg_icc *d, uint8_t *pixels, uint32_t count);
/// Transforms `count` pixels from `from` into `to` (a CMYK transform).
void cimg_icc_convert(cimg_icc *d, const uint8_t *from, uint8_t *to, uint32_t count);
void cimg_icc_close(cimg_icc *d);
/// A profile made from a coded colour description (PNG's cHRM and gAMA):
/// red, green, blue and white as CIE xy, and the transfer, decoded light =
/// V^gamma, or sRGB's curve where gamma is 0. 0 and a malloc'd profile,
/// or -1 (no lcms2).
int cimg_icc_coded(const double xy[8], double gamma, uint8_t **profile, size_t *length);
/// The same for H.273 code points (AVIF and HEIF nclx, JPEG XL's own): -1
/// where they say sRGB, or what browsers show as sRGB (BT.709's curve).
/// PQ and HLG describe the rows cimg_hdr_to_srgb8 made of them: sRGB's
/// curve, in BT.709's primaries if they were BT.2020's, else their own.
int cimg_icc_cicp(int primaries, int transfer, uint8_t **profile, size_t *length);

/// The sRGB levels (0-255, as floats) of `count` linear values, each
/// clamped to 0...1 (a NaN to 0): `levels[table[round(v * 65535)]]`, as
/// BlockArt's `ColorSpace.toSRGB` gives them, vectorised (srgb_levels.c
/// says why it is C). `table` holds 65536 entries, `levels` 256.
void cimg_srgb_levels(const float *linear, float *out, size_t count,
                      const uint8_t *table, const float *levels);

#endif
