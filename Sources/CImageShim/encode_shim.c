#include "CImageShim.h"
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

// A growing buffer that libpng writes into.
struct sink {
    uint8_t *bytes;
    size_t count, capacity;
    int failed;
};

static void on_write(png_structp png, png_bytep data, size_t count) {
    struct sink *s = (struct sink *)png_get_io_ptr(png);
    if (s->failed) return;
    if (s->count + count > s->capacity) {
        size_t capacity = s->capacity ? s->capacity : 65536;
        while (capacity < s->count + count) capacity *= 2;
        uint8_t *grown = realloc(s->bytes, capacity);
        if (!grown) { s->failed = 1; png_error(png, "out of memory"); }
        s->bytes = grown;
        s->capacity = capacity;
    }
    memcpy(s->bytes + s->count, data, count);
    s->count += count;
}

static void on_flush(png_structp png) { (void)png; }

static void on_encode_error(png_structp png, png_const_charp msg) {
    (void)msg;
    png_longjmp(png, 1);
}

static void on_encode_warning(png_structp png, png_const_charp msg) { (void)png; (void)msg; }

int cimg_png_encode_rgb(const uint8_t *rgb, uint32_t width, uint32_t height, int level,
                        uint8_t **out, size_t *out_count) {
    *out = NULL;
    *out_count = 0;
    struct sink sink = {0};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, on_encode_error, on_encode_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, &info);
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(sink.bytes);
        return -1;
    }
    png_set_write_fn(png, &sink, on_write, on_flush);
    png_set_compression_level(png, level);
    // The Sub filter alone: most of the gain of adaptive filtering on photos
    // at a fraction of its time.
    png_set_filter(png, 0, PNG_FILTER_SUB);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++) {
        png_write_row(png, (png_const_bytep)(rgb + (size_t)y * width * 3));
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    *out = sink.bytes;
    *out_count = sink.count;
    return 0;
}

int cimg_deflate(const uint8_t *bytes, size_t count, int level, uint8_t **out, size_t *out_count) {
    *out = NULL;
    *out_count = 0;
    uLongf bound = compressBound((uLong)count);
    uint8_t *buffer = malloc(bound);
    if (!buffer) return -1;
    if (compress2(buffer, &bound, bytes, (uLong)count, level) != Z_OK) {
        free(buffer);
        return -1;
    }
    *out = buffer;
    *out_count = bound;
    return 0;
}

void cimg_free(void *p) { free(p); }

uint32_t cimg_crc32(uint32_t crc, const uint8_t *bytes, size_t count) {
    // zlib takes a uInt length: longer runs go in pieces.
    while (count > 0) {
        uInt piece = count > 0x40000000u ? 0x40000000u : (uInt)count;
        crc = (uint32_t)crc32(crc, bytes, piece);
        bytes += piece;
        count -= piece;
    }
    return crc;
}
