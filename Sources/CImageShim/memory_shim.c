// mallopt's parameters are macros of malloc.h, which Swift does not import.
#include <malloc.h>
#include "CImageShim.h"

int cimg_one_heap(void) {
    return mallopt(M_ARENA_MAX, 1);
}

int cimg_read_whole(FILE *file, size_t max_bytes, uint8_t **data, size_t *size) {
    size_t capacity = 1 << 16;
    *size = 0;
    *data = malloc(capacity);
    while (*data) {
        size_t got = fread(*data + *size, 1, capacity - *size, file);
        *size += got;
        if (got == 0 || *size < capacity) return 0;
        if (capacity >= max_bytes) return 1;
        uint8_t *grown = realloc(*data, capacity * 2);
        if (!grown) {
            free(*data);
            *data = NULL;
            break;
        }
        *data = grown;
        capacity *= 2;
    }
    return -1;
}
