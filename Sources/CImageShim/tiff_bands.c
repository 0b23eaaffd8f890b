#include "tiff_internal.h"
#include <stdio.h>
#include <stdlib.h>

// Plain RGB's strips are coded one by one (LZW, Deflate): a second libtiff
// handle on the same file, on a thread of its own, decodes bands ahead of
// the caller, so that a large page decodes on two cores. The bands decoded
// ahead wait in a pool of buffers, whoever decoded them: a caller whose next
// band the helper is still on decodes a later one meanwhile. Each handle
// keeps its own place in the file (`reader`).
enum { SLOT_FREE, SLOT_WORKING, SLOT_DONE, SLOT_FAILED };
#define HELPER_SLOTS 3

struct tiff_helper {
    TIFF *tiff;
    struct reader reader;
    uint8_t *raw[HELPER_SLOTS];   // bands decoded ahead
    uint32_t band[HELPER_SLOTS];  // which band each holds
    int state[HELPER_SLOTS];
    uint32_t next;                // the first band nobody has taken on
    uint32_t bands;
    int quit;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    char message[200];
};

static uint32_t band_count(const struct cimg_tiff *d, uint32_t band) {
    uint32_t first = band * d->band_rows;
    return d->height - first < d->band_rows ? d->height - first : d->band_rows;
}

static int free_slot(const struct tiff_helper *h) {
    for (int s = 0; s < HELPER_SLOTS; s++)
        if (h->state[s] == SLOT_FREE) return s;
    return -1;
}

static int slot_of(const struct tiff_helper *h, uint32_t band) {
    for (int s = 0; s < HELPER_SLOTS; s++)
        if (h->state[s] != SLOT_FREE && h->band[s] == band) return s;
    return -1;
}

/// Decodes the next band nobody has taken on into a free slot, through
/// `tiff`, with the lock held on entry and on return; 0 when there was none.
static int decode_next(struct cimg_tiff *d, TIFF *tiff, const char *message) {
    struct tiff_helper *h = d->helper;
    int slot = free_slot(h);
    if (slot < 0 || h->next >= h->bands) return 0;
    uint32_t band = h->next++;
    h->band[slot] = band;
    h->state[slot] = SLOT_WORKING;
    pthread_mutex_unlock(&h->lock);
    int decoded = tiff_decode_band(tiff, h->raw[slot], d->width, d->cmyk, band * d->band_rows, band_count(d, band));
    pthread_mutex_lock(&h->lock);
    h->state[slot] = decoded == 0 ? SLOT_DONE : SLOT_FAILED;
    if (decoded != 0 && h->message[0] == 0)
        snprintf(h->message, sizeof h->message, "%s", message[0] ? message : "damaged image data");
    pthread_cond_broadcast(&h->changed);
    return 1;
}

static void *helper_main(void *arg) {
    struct cimg_tiff *d = arg;
    struct tiff_helper *h = d->helper;
    pthread_mutex_lock(&h->lock);
    while (!h->quit)
        if (!decode_next(d, h->tiff, h->reader.message)) pthread_cond_wait(&h->changed, &h->lock);
    pthread_mutex_unlock(&h->lock);
    return NULL;
}

static void free_helper(struct tiff_helper *h) {
    if (h->tiff) libtiff.Close(h->tiff);
    for (int s = 0; s < HELPER_SLOTS; s++) free(h->raw[s]);
    pthread_mutex_destroy(&h->lock);
    pthread_cond_destroy(&h->changed);
    free(h);
}

/// The helper, when its handle, buffers and thread can all be had; else
/// the page is decoded on one thread, as it would be anyway. The caller
/// takes on band 0.
void tiff_start_helper(struct cimg_tiff *d) {
    struct tiff_helper *h = calloc(1, sizeof *h);
    if (!h) return;
    h->reader = (struct reader){d->file, &d->file_lock, 0, h->message};
    h->bands = (d->height + d->band_rows - 1) / d->band_rows;
    h->next = 1;
    pthread_mutex_init(&h->lock, NULL);
    pthread_cond_init(&h->changed, NULL);
    int ready = 1;
    for (int s = 0; s < HELPER_SLOTS; s++) ready = ready && (h->raw[s] = malloc((size_t)d->width * d->band_rows * d->plain));
    h->tiff = ready ? tiff_open_page(&h->reader) : NULL;
    d->helper = h;
    if (!h->tiff || pthread_create(&h->thread, NULL, helper_main, d) != 0) {
        free_helper(h);
        d->helper = NULL;
    }
}

/// Band `band` into `raw`: from the pool when it was decoded ahead, else
/// decoded here. While the helper is on it, this thread decodes a later
/// band meanwhile. 0, or -1.
int tiff_take_band(struct cimg_tiff *d, uint32_t band) {
    struct tiff_helper *h = d->helper;
    pthread_mutex_lock(&h->lock);
    for (;;) {
        int slot = slot_of(h, band);
        if (slot < 0) break;
        if (h->state[slot] == SLOT_DONE) {
            uint8_t *ours = d->raw;
            d->raw = h->raw[slot];
            h->raw[slot] = ours;
        } else if (h->state[slot] == SLOT_FAILED) {
            if (d->message[0] == 0) snprintf(d->message, sizeof d->message, "%s", h->message);
        } else {
            if (!decode_next(d, d->tiff, d->message)) pthread_cond_wait(&h->changed, &h->lock);
            continue;
        }
        int failed = h->state[slot] == SLOT_FAILED;
        h->state[slot] = SLOT_FREE;
        pthread_cond_broadcast(&h->changed);
        pthread_mutex_unlock(&h->lock);
        return failed ? -1 : 0;
    }
    // Nobody took it on (the first band, or rows asked out of order).
    if (h->next <= band) h->next = band + 1;
    pthread_mutex_unlock(&h->lock);
    return tiff_read_raw(d, band * d->band_rows, band_count(d, band));
}

void tiff_stop_helper(struct tiff_helper *h) {
    if (!h) return;
    pthread_mutex_lock(&h->lock);
    h->quit = 1;
    pthread_cond_broadcast(&h->changed);
    pthread_mutex_unlock(&h->lock);
    pthread_join(h->thread, NULL);
    free_helper(h);
}
