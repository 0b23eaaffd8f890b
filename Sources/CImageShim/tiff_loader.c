// libtiff opened on the first TIFF (dlopen), as libavif, libheif and
// libjxl are: linked, it and the libraries it brings (libLerc, libjbig,
// libzstd, liblzma, libdeflate) cost every start 0.5 ms. The table of its
// functions is shared with tiff_shim.c and tiff_bands.c (tiff_internal.h).
#include <pthread.h>

#include "dl_table.h"
#include "tiff_internal.h"

struct libtiff libtiff;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;
static char load_error[256] = "libtiff was not loaded";

#define FIND(field) \
    if (!cimg_dl_find(library, "TIFF" #field, (void **)&libtiff.field, "libtiff", load_error, sizeof load_error)) return;

static void load(void) {
    static const char *const names[] = {"libtiff.so.6", "libtiff.so", NULL};
    void *library = cimg_dl_open(names, "libtiff", load_error, sizeof load_error);
    if (!library) return;
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
    FIND(ComputeTile)
    FIND(TileSize)
    FIND(ReadEncodedTile)
    FIND(ClientOpenExt)
    loaded = 0;
}
#undef FIND

int cimg_tiff_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *cimg_tiff_load_error(void) { return load_error; }
