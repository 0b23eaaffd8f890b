// mallopt's parameters are macros of malloc.h, which Swift does not import.
#include <malloc.h>
#include "CImageShim.h"

int cimg_one_heap(void) {
    return mallopt(M_ARENA_MAX, 1);
}
