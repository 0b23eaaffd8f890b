#include "CImageShim.h"
#include <webp/decode.h>
#include <webp/demux.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

// libwebp returns status codes and never prints. A still is scaled by
// libwebp to the size asked for, so memory follows that size. A file of at
// most WHOLE_BYTES is read whole and decoded in one call with libwebp's
// second thread (the loop filter beside the decoding: a 12 MP photo in two
// thirds of the time); a larger one, or one that does not decode whole
// (cut short, damaged), goes to the incremental decoder as the file is read,
// on one thread, which shows the rows it could decode. The incremental
// decoder is never given the thread: it returns for more data with the
// filter thread still writing rows, and nothing public waits for it. An
// animation needs the whole file (the demuxer's frames point into it) and a
// canvas the library composes.
struct cimg_webp {
    FILE *file;
    uint8_t *data;          // bytes read so far (the head; the whole file for an animation)
    size_t count, capacity;
    size_t appended;        // how many of them the incremental decoder has had
    WebPDecoderConfig config;
    WebPIDecoder *incremental;
    int ended;              // the file ran out
    int whole;              // decoded whole: rows come from config.output
    WebPAnimDecoder *animation;
    char message[256];
};

static const char *status_text(VP8StatusCode status) {
    switch (status) {
    case VP8_STATUS_OUT_OF_MEMORY: return "out of memory";
    case VP8_STATUS_INVALID_PARAM: return "invalid parameter";
    case VP8_STATUS_BITSTREAM_ERROR: return "bitstream error";
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported feature";
    case VP8_STATUS_SUSPENDED: return "suspended";
    case VP8_STATUS_USER_ABORT: return "aborted";
    case VP8_STATUS_NOT_ENOUGH_DATA: return "file is truncated";
    default: return "unknown libwebp error";
    }
}

static int fail(cimg_webp *d, const char *text) {
    snprintf(d->message, sizeof d->message, "%s", text);
    return -1;
}

// Reads up to `want` more bytes into d->data; 0 at the end of the file.
static size_t read_more(cimg_webp *d, size_t want) {
    if (d->count + want > d->capacity) {
        size_t capacity = d->capacity ? d->capacity : 4096;
        while (capacity < d->count + want) capacity *= 2;
        uint8_t *grown = realloc(d->data, capacity);
        if (!grown) return 0;
        d->data = grown;
        d->capacity = capacity;
    }
    size_t got = fread(d->data + d->count, 1, want, d->file);
    d->count += got;
    if (got == 0) d->ended = 1;
    return got;
}

// Reads the rest of the file into d->data: 0 when memory ran out first.
static int read_all(cimg_webp *d, size_t step) {
    while (!d->ended) {
        if (read_more(d, step) == 0 && !d->ended) return 0;
    }
    return 1;
}

cimg_webp *cimg_webp_open(FILE *file) {
    cimg_webp *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->file = file;
    if (!WebPInitDecoderConfig(&d->config)) {
        free(d);
        return NULL;
    }
    return d;
}

int cimg_webp_read_header(cimg_webp *d, uint32_t *width, uint32_t *height, int *has_alpha, int *animated) {
    // libwebp takes no empty buffer: the first chunk headers come first.
    if (read_more(d, 64) == 0) return fail(d, "file is truncated");
    for (;;) {
        VP8StatusCode status = WebPGetFeatures(d->data, d->count, &d->config.input);
        if (status == VP8_STATUS_OK) break;
        if (status != VP8_STATUS_NOT_ENOUGH_DATA) return fail(d, status_text(status));
        // The features sit in the first chunks; a header this long is damage.
        if (d->count >= (1 << 20) || read_more(d, 256) == 0) return fail(d, status_text(status));
    }
    *width = (uint32_t)d->config.input.width;
    *height = (uint32_t)d->config.input.height;
    *has_alpha = d->config.input.has_alpha;
    *animated = d->config.input.has_animation;
    return 0;
}

enum { WHOLE_BYTES = 32 << 20 };

// Reads the file whole (if it is at most WHOLE_BYTES) and decodes it in one
// call on two threads: 1 when that gave the picture. Otherwise 0, with
// what was read kept for the incremental decoder, which starts from its
// first byte.
static int decode_whole(cimg_webp *d) {
    // The size first (a file or an fmemopen stream): a larger file is not
    // read ahead at all, so that its memory stays the incremental decoder's.
    long here = ftell(d->file);
    if (here < 0 || fseek(d->file, 0, SEEK_END) != 0) return 0;
    long end = ftell(d->file);
    if (fseek(d->file, here, SEEK_SET) != 0 || end < 0 || end > WHOLE_BYTES) return 0;
    if (!read_all(d, 1 << 20) || d->count > WHOLE_BYTES) return 0;
    d->config.options.use_threads = 1;
    VP8StatusCode status = WebPDecode(d->data, d->count, &d->config);
    d->config.options.use_threads = 0;
    if (status == VP8_STATUS_OK) {
        d->whole = 1;
        return 1;
    }
    WebPFreeDecBuffer(&d->config.output);
    return 0;
}

int cimg_webp_start(cimg_webp *d, uint32_t out_width, uint32_t out_height, int channels,
                    uint32_t crop_x, uint32_t crop_y, uint32_t crop_width, uint32_t crop_height) {
    WebPDecoderConfig *c = &d->config;
    c->output.colorspace = channels == 4 ? MODE_RGBA : MODE_RGB;
    int in_width = c->input.width, in_height = c->input.height;
    if (crop_width > 0 && crop_height > 0) {
        // Cropped first, then scaled: only the crop's pixels are kept.
        c->options.use_cropping = 1;
        c->options.crop_left = (int)crop_x;
        c->options.crop_top = (int)crop_y;
        c->options.crop_width = (int)crop_width;
        c->options.crop_height = (int)crop_height;
        in_width = (int)crop_width;
        in_height = (int)crop_height;
    }
    if ((int)out_width < in_width || (int)out_height < in_height) {
        c->options.use_scaling = 1;
        c->options.scaled_width = (int)out_width;
        c->options.scaled_height = (int)out_height;
    }
    if (decode_whole(d)) return 0;
    d->incremental = WebPIDecode(NULL, 0, c);
    if (!d->incremental) return fail(d, "out of memory");
    return 0;
}

// Feeds the decoder until row `y` is decoded: 0, 1 when the file ended
// first (the rows from there on are missing), -1 on damage.
int cimg_webp_read_row(cimg_webp *d, uint8_t *row, uint32_t y) {
    size_t channels = d->config.output.colorspace == MODE_RGBA ? 4 : 3;
    if (d->whole) {
        const WebPRGBABuffer *rgba = &d->config.output.u.RGBA;
        if ((int)y >= d->config.output.height) return 1;
        memcpy(row, rgba->rgba + (size_t)y * (size_t)rgba->stride, (size_t)d->config.output.width * channels);
        return 0;
    }
    int last = 0, width = 0, height = 0, stride = 0;
    for (;;) {
        uint8_t *pixels = WebPIDecGetRGB(d->incremental, &last, &width, &height, &stride);
        if (pixels && (int)y < last) {
            memcpy(row, pixels + (size_t)y * (size_t)stride, (size_t)width * channels);
            return 0;
        }
        if (d->appended == d->count) {
            d->count = d->appended = 0;   // appended bytes are copied by libwebp
            if (d->ended || read_more(d, 65536) == 0) return 1;
        }
        VP8StatusCode status = WebPIAppend(d->incremental, d->data + d->appended, d->count - d->appended);
        d->appended = d->count;
        if (status != VP8_STATUS_OK && status != VP8_STATUS_SUSPENDED) return fail(d, status_text(status));
    }
}

int cimg_webp_animation_start(cimg_webp *d, uint32_t *frames, int *loop_count) {
    if (!read_all(d, 1 << 16)) return fail(d, "out of memory");
    WebPData data = { d->data, d->count };
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) return fail(d, "unsupported libwebp");
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    d->animation = WebPAnimDecoderNew(&data, &options);
    if (!d->animation) return fail(d, "bitstream error (or the file is truncated)");
    WebPAnimInfo info;
    if (!WebPAnimDecoderGetInfo(d->animation, &info)) return fail(d, "bitstream error");
    *frames = info.frame_count;
    *loop_count = (int)info.loop_count;
    return 0;
}

int cimg_webp_animation_next(cimg_webp *d, const uint8_t **canvas, int *timestamp_ms) {
    if (!WebPAnimDecoderHasMoreFrames(d->animation)) return 1;
    uint8_t *pixels = NULL;
    int timestamp = 0;
    if (!WebPAnimDecoderGetNext(d->animation, &pixels, &timestamp)) return fail(d, "bitstream error (or the file is truncated)");
    *canvas = pixels;
    *timestamp_ms = timestamp;
    return 0;
}

void cimg_webp_animation_rewind(cimg_webp *d) {
    if (d->animation) WebPAnimDecoderReset(d->animation);
}

const char *cimg_webp_message(const cimg_webp *d) { return d->message; }

void cimg_webp_close(cimg_webp *d) {
    if (!d) return;
    if (d->incremental) WebPIDelete(d->incremental);
    WebPFreeDecBuffer(&d->config.output);
    if (d->animation) WebPAnimDecoderDelete(d->animation);
    free(d->data);
    free(d);
}
