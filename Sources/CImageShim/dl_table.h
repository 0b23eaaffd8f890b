// What every library opened on first use (libavif, libheif, libjxl,
// libtiff, librsvg) does to open it and fill its table of functions, with
// the reason kept for the one line a picture gets when it cannot be done.
// Not part of the module's interface.
#ifndef CIMG_DL_TABLE_H
#define CIMG_DL_TABLE_H

#include <stddef.h>

/// The first of `names` (ending in NULL) that dlopen opens (RTLD_NOW,
/// RTLD_LOCAL), or NULL with dlerror's words in `error` ("`what` could not
/// be loaded" when it has none).
void *cimg_dl_open(const char *const names[], const char *what, char *error, size_t size);

/// `name` looked up in `library` into `*slot`: 1, or 0 with "`what` has no
/// `name`" in `error`.
int cimg_dl_find(void *library, const char *name, void **slot, const char *what, char *error, size_t size);

#endif
