// Colour management through lcms2, opened on first use (dlopen), like
// libavif: a picture with no embedded profile never loads it, and no
// -dev package is needed to build. The few entry points are declared here
// as lcms2.h declares them (its API has been stable since 2.0).
#include "CImageShim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void *cmsHPROFILE;
typedef void *cmsHTRANSFORM;
typedef void *cmsContext;
typedef void *cmsToneCurve;
typedef struct { double x, y, Y; } cmsCIExyY;
typedef struct { cmsCIExyY red, green, blue; } cmsCIExyYTRIPLE;

// lcms2.h's pixel formats and flags.
#define TYPE_RGB_8 ((4u << 16) | (3u << 3) | 1u)
#define TYPE_RGBA_8 ((4u << 16) | (1u << 7) | (3u << 3) | 1u)
#define INTENT_PERCEPTUAL 0u
#define FLAGS_COPY_ALPHA 0x04000000u
#define FLAGS_NOOPTIMIZE 0x0100u
#define FLAGS_NOCACHE 0x0040u
#define SIG_RGB_DATA 0x52474220u /* 'RGB ' */
#define SIG_GRAY_DATA 0x47524159u /* 'GRAY' */
#define SIG_CMYK_DATA 0x434D594Bu /* 'CMYK' */
// CMYK as ink (0 none, 255 full), and inverted as Adobe writes it (FLAVOR_SH).
#define TYPE_CMYK_8 ((6u << 16) | (4u << 3) | 1u)
#define TYPE_CMYK_8_REV (TYPE_CMYK_8 | (1u << 13))
// A grey profile reads the first byte of each pixel (grey rows arrive as
// RGB or RGBA, the grey copied) and writes RGB; the bytes after it are
// extra channels lcms2 leaves as they are: the alpha stays.
#define TYPE_GRAY_PIXEL(channels) ((3u << 16) | ((unsigned)((channels) - 1) << 7) | (1u << 3) | 1u)
#define TYPE_RGB_PIXEL(channels) ((4u << 16) | ((unsigned)((channels) - 3) << 7) | (3u << 3) | 1u)
#define INFO_DESCRIPTION 0

static struct {
    cmsHPROFILE (*openProfileFromMem)(const void *, unsigned);
    cmsHPROFILE (*createSRGB)(void);
    int (*closeProfile)(cmsHPROFILE);
    unsigned (*getColorSpace)(cmsHPROFILE);
    cmsHTRANSFORM (*createTransform)(cmsHPROFILE, unsigned, cmsHPROFILE, unsigned, unsigned, unsigned);
    void (*doTransform)(cmsHTRANSFORM, const void *, void *, unsigned);
    void (*deleteTransform)(cmsHTRANSFORM);
    unsigned (*getInfoASCII)(cmsHPROFILE, int, const char *, const char *, char *, unsigned);
    void (*setLogErrorHandler)(void *);
    cmsHPROFILE (*createRGB)(const cmsCIExyY *, const cmsCIExyYTRIPLE *, cmsToneCurve const[3]);
    cmsToneCurve (*parametric)(cmsContext, int, const double *);
    void (*freeCurve)(cmsToneCurve);
    int (*saveToMem)(cmsHPROFILE, void *, unsigned *);
} lcms;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;

static void quiet(cmsContext context, unsigned code, const char *text) {
    (void)context, (void)code, (void)text;  // never to the terminal
}

static void load(void) {
    void *library = dlopen("liblcms2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
#define FIND(field, name) \
    if (!(*(void **)&lcms.field = dlsym(library, name))) return;
    FIND(openProfileFromMem, "cmsOpenProfileFromMem")
    FIND(createSRGB, "cmsCreate_sRGBProfile")
    FIND(closeProfile, "cmsCloseProfile")
    FIND(getColorSpace, "cmsGetColorSpace")
    FIND(createTransform, "cmsCreateTransform")
    FIND(doTransform, "cmsDoTransform")
    FIND(deleteTransform, "cmsDeleteTransform")
    FIND(getInfoASCII, "cmsGetProfileInfoASCII")
    FIND(setLogErrorHandler, "cmsSetLogErrorHandler")
    FIND(createRGB, "cmsCreateRGBProfile")
    FIND(parametric, "cmsBuildParametricToneCurve")
    FIND(freeCurve, "cmsFreeToneCurve")
    FIND(saveToMem, "cmsSaveProfileToMem")
#undef FIND
    lcms.setLogErrorHandler((void *)quiet);
    loaded = 0;
}

int cimg_icc_available(void) {
    pthread_once(&once, load);
    return loaded;
}

int cimg_icc_is_srgb(const uint8_t *profile, size_t length) {
    if (cimg_icc_available() != 0 || length > 0xFFFFFFFFu) return 0;
    cmsHPROFILE p = lcms.openProfileFromMem(profile, (unsigned)length);
    if (!p) return 0;
    char name[256] = "";
    lcms.getInfoASCII(p, INFO_DESCRIPTION, "en", "US", name, sizeof name);
    lcms.closeProfile(p);
    return strstr(name, "sRGB") != NULL;
}

int cimg_icc_is_grey(const uint8_t *profile, size_t length) {
    return length >= 20 && memcmp(profile + 16, "GRAY", 4) == 0;
}

struct cimg_icc {
    cmsHTRANSFORM transform;
};

/// A transform from `from` (pixels laid out as `in`) to sRGB (as `out`),
/// or NULL when lcms2 can make none.
static cmsHTRANSFORM to_srgb(cmsHPROFILE from, unsigned in, unsigned out, unsigned flags) {
    cmsHPROFILE to = lcms.createSRGB();
    cmsHTRANSFORM t = to ? lcms.createTransform(from, in, to, out, INTENT_PERCEPTUAL, flags) : NULL;
    if (to) lcms.closeProfile(to);
    return t;
}

/// `t` in a cimg_icc, or NULL (with `t` let go) when there is no memory.
static cimg_icc *wrap(cmsHTRANSFORM t) {
    cimg_icc *d = t ? calloc(1, sizeof *d) : NULL;
    if (d) d->transform = t;
    else if (t) lcms.deleteTransform(t);
    return d;
}

cimg_icc *cimg_icc_open(const uint8_t *profile, size_t length, int channels, int *damaged) {
    *damaged = 0;
    if (cimg_icc_available() != 0 || (channels != 3 && channels != 4)) return NULL;
    cmsHPROFILE from = length <= 0xFFFFFFFFu ? lcms.openProfileFromMem(profile, (unsigned)length) : NULL;
    if (!from) {
        *damaged = 1;
        return NULL;
    }
    cimg_icc *d = NULL;
    unsigned space = lcms.getColorSpace(from);
    if (space == SIG_RGB_DATA || space == SIG_GRAY_DATA) {
        unsigned type = channels == 4 ? TYPE_RGBA_8 : TYPE_RGB_8;
        unsigned flags = channels == 4 ? FLAGS_COPY_ALPHA : 0;
        unsigned in = type;
        if (space == SIG_GRAY_DATA) in = TYPE_GRAY_PIXEL(channels), type = TYPE_RGB_PIXEL(channels), flags = 0;
        cmsHTRANSFORM t = to_srgb(from, in, type, flags);
        d = wrap(t);
        // A profile lcms2 reads but cannot make a transform of.
        if (!t) *damaged = 1;
    } else if (space == SIG_CMYK_DATA) {
        // The decoder applies it to the inks (cimg_icc_open_cmyk); here only
        // whether lcms2 can make a transform of it at all.
        cmsHTRANSFORM t = to_srgb(from, TYPE_CMYK_8, TYPE_RGB_8, FLAGS_NOOPTIMIZE);
        if (t) lcms.deleteTransform(t);
        else *damaged = 1;
    }
    lcms.closeProfile(from);
    return d;
}

int cimg_icc_is_cmyk(const uint8_t *profile, size_t length) {
    return length >= 20 && memcmp(profile + 16, "CMYK", 4) == 0;
}

cimg_icc *cimg_icc_open_cmyk(const uint8_t *profile, size_t length, int inverted) {
    // As ColorTransform.maxBytes: a real profile is a few KB, and a bigger
    // one is reported damaged there.
    if (cimg_icc_available() != 0 || !cimg_icc_is_cmyk(profile, length) || length > (16u << 20)) return NULL;
    cmsHPROFILE from = lcms.openProfileFromMem(profile, (unsigned)length);
    if (!from) return NULL;
    // No one-pixel cache: the transform is then read-only, and a TIFF's
    // two band decoders use it at once.
    cmsHTRANSFORM t = lcms.getColorSpace(from) == SIG_CMYK_DATA
                          ? to_srgb(from, inverted ? TYPE_CMYK_8_REV : TYPE_CMYK_8, TYPE_RGB_8, FLAGS_NOCACHE)
                          : NULL;
    lcms.closeProfile(from);
    return wrap(t);
}

void cimg_icc_convert(cimg_icc *d, const uint8_t *from, uint8_t *to, uint32_t count) {
    if (d && count) lcms.doTransform(d->transform, from, to, count);
}

void cimg_icc_apply(cimg_icc *d, uint8_t *pixels, uint32_t count) {
    if (d && count) lcms.doTransform(d->transform, pixels, pixels, count);
}

void cimg_icc_close(cimg_icc *d) {
    if (!d) return;
    lcms.deleteTransform(d->transform);
    free(d);
}

int cimg_icc_coded(const double xy[8], double gamma, uint8_t **profile, size_t *length) {
    if (cimg_icc_available() != 0) return -1;
    // sRGB's curve is lcms2's type 4: (aV + b)^g above d, cV below it.
    const double srgb[5] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
    const double power[1] = {gamma};
    cmsToneCurve curve = gamma > 0 ? lcms.parametric(NULL, 1, power) : lcms.parametric(NULL, 4, srgb);
    if (!curve) return -1;
    cmsToneCurve curves[3] = {curve, curve, curve};
    cmsCIExyY white = {xy[6], xy[7], 1};
    cmsCIExyYTRIPLE primaries = {{xy[0], xy[1], 1}, {xy[2], xy[3], 1}, {xy[4], xy[5], 1}};
    cmsHPROFILE made = lcms.createRGB(&white, &primaries, curves);
    lcms.freeCurve(curve);
    if (!made) return -1;
    unsigned size = 0;
    int ok = lcms.saveToMem(made, NULL, &size) && size > 0 && (*profile = malloc(size)) &&
             lcms.saveToMem(made, *profile, &size);
    lcms.closeProfile(made);
    if (!ok) {
        if (size > 0) free(*profile);
        *profile = NULL;
        return -1;
    }
    *length = size;
    return 0;
}

/// H.273's colour primaries: red, green, blue and white as CIE xy.
static const double *cicp_primaries(int code) {
    static const double d65x = 0.3127, d65y = 0.3290;
    static const double table[][8] = {
        {0.640, 0.330, 0.300, 0.600, 0.150, 0.060, d65x, d65y},    // 1: BT.709, sRGB
        {0.67, 0.33, 0.21, 0.71, 0.14, 0.08, 0.310, 0.316},        // 4: BT.470 M
        {0.64, 0.33, 0.29, 0.60, 0.15, 0.06, d65x, d65y},          // 5: BT.470 B/G, PAL
        {0.630, 0.340, 0.310, 0.595, 0.155, 0.070, d65x, d65y},    // 6, 7: BT.601, SMPTE 240M
        {0.681, 0.319, 0.243, 0.692, 0.145, 0.049, 0.310, 0.316},  // 8: generic film
        {0.708, 0.292, 0.170, 0.797, 0.131, 0.046, d65x, d65y},    // 9: BT.2020
        {0.680, 0.320, 0.265, 0.690, 0.150, 0.060, 0.314, 0.351},  // 11: DCI-P3
        {0.680, 0.320, 0.265, 0.690, 0.150, 0.060, d65x, d65y},    // 12: Display P3
        {0.630, 0.340, 0.295, 0.605, 0.155, 0.077, d65x, d65y},    // 22: EBU 3213
    };
    switch (code) {
    case 4: return table[1];
    case 5: return table[2];
    case 6: case 7: return table[3];
    case 8: return table[4];
    case 9: return table[5];
    case 11: return table[6];
    case 12: return table[7];
    case 22: return table[8];
    default: return table[0];  // 1, 2 (unspecified) and codes we do not know
    }
}

int cimg_icc_cicp(int primaries, int transfer, uint8_t **profile, size_t *length) {
    // PQ and HLG come tone-mapped by cimg_hdr_to_srgb8: in sRGB's curve,
    // and in BT.709's primaries when they were BT.2020's.
    if (transfer == CIMG_TRANSFER_PQ || transfer == CIMG_TRANSFER_HLG) {
        transfer = 13;
        if (primaries == 9) primaries = 1;
    }
    // BT.709's and BT.601's curves (1, 6, 14, 15) are shown as sRGB's, as
    // browsers show them; only the plain powers and linear light differ.
    double gamma = transfer == 4 ? 2.2 : transfer == 5 ? 2.8 : transfer == 8 ? 1 : 0;
    const double *xy = cicp_primaries(primaries);
    if (gamma == 0 && xy == cicp_primaries(1)) return -1;  // sRGB: nothing to do
    return cimg_icc_coded(xy, gamma, profile, length);
}
