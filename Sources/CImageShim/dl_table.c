// See dl_table.h.
#include "dl_table.h"

#include <dlfcn.h>
#include <stdio.h>

void *cimg_dl_open(const char *const names[], const char *what, char *error, size_t size) {
    // Bound at once (RTLD_NOW), though lazily librsvg's 49 libraries open
    // 1.6 ms sooner: a dependency lacking a symbol (a half-done upgrade)
    // is then this one line, not an exit in the middle of a picture with
    // the terminal left as it was.
    for (const char *const *name = names; *name; name++) {
        void *library = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
        if (library) return library;
    }
    const char *why = dlerror();
    if (why) snprintf(error, size, "%s", why);
    else snprintf(error, size, "%s could not be loaded", what);
    return NULL;
}

int cimg_dl_find(void *library, const char *name, void **slot, const char *what, char *error, size_t size) {
    *slot = dlsym(library, name);
    if (!*slot) snprintf(error, size, "%s has no %s", what, name);
    return *slot != NULL;
}
