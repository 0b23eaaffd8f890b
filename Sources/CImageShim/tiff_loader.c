// libtiff opened on the first TIFF (dlopen), as libavif, libheif and
// libjxl are: linked, it and the libraries it brings (libLerc, libjbig,
// libzstd, liblzma, libdeflate) cost every start 0.5 ms. The table of its
// functions is shared with tiff_shim.c and tiff_bands.c (tiff_internal.h).
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "tiff_internal.h"

struct libtiff libtiff;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;
static char load_error[256] = "libtiff was not loaded";

#define FIND(field)                                                                  \
    if (!(*(void **)&libtiff.field = dlsym(library, "TIFF" #field))) {               \
        snprintf(load_error, sizeof load_error, "libtiff has no TIFF%s", #field);    \
        return;                                                                      \
    }

static void load(void) {
    void *library = dlopen("libtiff.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libtiff.so", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "%s", why ? why : "libtiff could not be loaded");
        return;
    }
    FIND(GetField)
    FIND(GetFieldDefaulted)
    FIND(IsTiled)
    FIND(Close)
    FIND(StripSize)
    FIND(ReadRGBATileExt)
    FIND(ReadRGBAStripExt)
    FIND(ReadEncodedStrip)
    FIND(RGBAImageOK)
    FIND(OpenOptionsAlloc)
    FIND(OpenOptionsFree)
    FIND(OpenOptionsSetMaxSingleMemAlloc)
    FIND(OpenOptionsSetErrorHandlerExtR)
    FIND(OpenOptionsSetWarningHandlerExtR)
    FIND(ComputeStrip)
    FIND(ClientOpenExt)
    loaded = 0;
}
#undef FIND

int cimg_tiff_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *cimg_tiff_load_error(void) { return load_error; }
