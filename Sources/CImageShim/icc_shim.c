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

// lcms2.h's pixel formats and flags.
#define TYPE_RGB_8 ((4u << 16) | (3u << 3) | 1u)
#define TYPE_RGBA_8 ((4u << 16) | (1u << 7) | (3u << 3) | 1u)
#define INTENT_PERCEPTUAL 0u
#define FLAGS_COPY_ALPHA 0x04000000u
#define SIG_RGB_DATA 0x52474220u /* 'RGB ' */
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

struct cimg_icc {
    cmsHTRANSFORM transform;
};

cimg_icc *cimg_icc_open(const uint8_t *profile, size_t length, int channels, int *damaged) {
    *damaged = 0;
    if (cimg_icc_available() != 0 || (channels != 3 && channels != 4)) return NULL;
    cmsHPROFILE from = length <= 0xFFFFFFFFu ? lcms.openProfileFromMem(profile, (unsigned)length) : NULL;
    if (!from) {
        *damaged = 1;
        return NULL;
    }
    cimg_icc *d = NULL;
    if (lcms.getColorSpace(from) == SIG_RGB_DATA) {
        cmsHPROFILE to = lcms.createSRGB();
        unsigned type = channels == 4 ? TYPE_RGBA_8 : TYPE_RGB_8;
        cmsHTRANSFORM t = to ? lcms.createTransform(from, type, to, type, INTENT_PERCEPTUAL,
                                                     channels == 4 ? FLAGS_COPY_ALPHA : 0)
                             : NULL;
        if (to) lcms.closeProfile(to);
        if (t && (d = calloc(1, sizeof *d))) d->transform = t;
        else if (t) lcms.deleteTransform(t);
        // An RGB profile lcms2 reads but cannot make a transform of.
        if (!t) *damaged = 1;
    }
    lcms.closeProfile(from);
    return d;
}

void cimg_icc_apply(cimg_icc *d, uint8_t *pixels, uint32_t count) {
    if (d && count) lcms.doTransform(d->transform, pixels, pixels, count);
}

void cimg_icc_close(cimg_icc *d) {
    if (!d) return;
    lcms.deleteTransform(d->transform);
    free(d);
}
