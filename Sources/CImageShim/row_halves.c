// See row_halves.h.
#include "row_halves.h"

#include <pthread.h>

struct half {
    int (*body)(void *, int, int);
    void *context;
    int first, last, result;
};

static void *run(void *argument) {
    struct half *h = argument;
    h->result = h->body(h->context, h->first, h->last);
    return NULL;
}

int cimg_row_halves(int rows, int split, int (*body)(void *context, int first, int last), void *context) {
    struct half upper = {body, context, 0, rows, 0}, lower = upper;
    pthread_t helper;
    split = split && rows >= 2;
    if (split) {
        lower.first = upper.last = rows / 2;
        split = pthread_create(&helper, NULL, run, &lower) == 0;
        if (!split) upper.last = rows;
    }
    run(&upper);
    if (split) pthread_join(helper, NULL);
    return upper.result != 0 || (split && lower.result != 0) ? -1 : 0;
}
