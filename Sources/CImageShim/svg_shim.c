// SVG through librsvg and cairo, opened on first use (dlopen): librsvg
// brings glib, pango and cairo, which a start that shows no SVG should not
// load. The few entry points are declared here as librsvg 2.52+ and cairo
// declare them, so no -dev package is needed to build.
//
// Nothing outside the document is ever read: the handle is made from the
// bytes with no base URL, and librsvg resolves no href (file, relative or
// network) without one; inline data: images still work. librsvg's own
// limits bound entity expansion, nesting and element count.
#include "CImageShim.h"
#include "dl_table.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint32_t domain;
    int code;
    char *message;
} GErrorLike;
typedef struct {
    double x, y, width, height;
} RsvgRectangle;
typedef struct {
    double length;
    int unit;
} RsvgLength;

#define CAIRO_FORMAT_ARGB32 0

static struct {
    void *(*fromData)(const uint8_t *, size_t, GErrorLike **);
    int (*sizeInPixels)(void *, double *, double *);
    void (*dimensions)(void *, int *, RsvgLength *, int *, RsvgLength *, int *, RsvgRectangle *);
    int (*render)(void *, void *, const RsvgRectangle *, GErrorLike **);
    void (*unref)(void *);
    void (*errorFree)(GErrorLike *);
    void *(*surfaceForData)(unsigned char *, int, int, int, int);
    void (*surfaceDestroy)(void *);
    int (*surfaceStatus)(void *);
    void (*surfaceFlush)(void *);
    void *(*create)(void *);
    void (*destroy)(void *);
    void (*scale)(void *, double, double);
} rsvg;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;
static char load_error[256] = "librsvg was not loaded";

#define FIND(library, field, name) \
    if (!cimg_dl_find(library, name, (void **)&rsvg.field, library##_names[0], load_error, sizeof load_error)) return;
#define OPEN(library, name)                                                                 \
    static const char *const library##_names[] = {name, NULL};                              \
    void *library = cimg_dl_open(library##_names, name, load_error, sizeof load_error);     \
    if (!library) return;

static void load(void) {
    OPEN(svg, "librsvg-2.so.2")
    OPEN(cairo, "libcairo.so.2")
    OPEN(gobject, "libgobject-2.0.so.0")
    OPEN(glib, "libglib-2.0.so.0")
    FIND(svg, fromData, "rsvg_handle_new_from_data")
    FIND(svg, sizeInPixels, "rsvg_handle_get_intrinsic_size_in_pixels")
    FIND(svg, dimensions, "rsvg_handle_get_intrinsic_dimensions")
    FIND(svg, render, "rsvg_handle_render_document")
    FIND(gobject, unref, "g_object_unref")
    FIND(glib, errorFree, "g_error_free")
    FIND(cairo, surfaceForData, "cairo_image_surface_create_for_data")
    FIND(cairo, surfaceDestroy, "cairo_surface_destroy")
    FIND(cairo, surfaceStatus, "cairo_surface_status")
    FIND(cairo, surfaceFlush, "cairo_surface_flush")
    FIND(cairo, create, "cairo_create")
    FIND(cairo, destroy, "cairo_destroy")
    FIND(cairo, scale, "cairo_scale")
    loaded = 0;
}
#undef FIND
#undef OPEN

int cimg_svg_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *cimg_svg_load_error(void) { return load_error; }

struct cimg_svg {
    void *handle;
    double width, height;
    uint8_t *rows;  // RGBA8, straight alpha
    int out_width, out_height;
    char message[256];
};

static void take_error(cimg_svg *d, GErrorLike *error, const char *otherwise) {
    snprintf(d->message, sizeof d->message, "%s", error && error->message ? error->message : otherwise);
    if (error) rsvg.errorFree(error);
    // libxml2's messages end in a newline: the line is ours to end.
    size_t n = strlen(d->message);
    while (n > 0 && (d->message[n - 1] == '\n' || d->message[n - 1] == ' ')) d->message[--n] = 0;
}

cimg_svg *cimg_svg_open(const uint8_t *data, size_t size) {
    if (cimg_svg_load() != 0) return NULL;
    cimg_svg *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    GErrorLike *error = NULL;
    d->handle = rsvg.fromData(data, size, &error);
    if (!d->handle) take_error(d, error, "not an SVG document");
    return d;
}

int cimg_svg_read_header(cimg_svg *d, double *width, double *height) {
    if (!d->handle) return -1;
    double w = 0, h = 0;
    if (!rsvg.sizeInPixels(d->handle, &w, &h) || w <= 0 || h <= 0) {
        // No width and height in pixels: its viewBox's, if it has one.
        int has_w, has_h, has_box;
        RsvgLength lw, lh;
        RsvgRectangle box;
        rsvg.dimensions(d->handle, &has_w, &lw, &has_h, &lh, &has_box, &box);
        if (!has_box || box.width <= 0 || box.height <= 0) {
            snprintf(d->message, sizeof d->message, "no size: no width and height, and no viewBox");
            return -1;
        }
        w = box.width;
        h = box.height;
    }
    d->width = *width = w;
    d->height = *height = h;
    return 0;
}

int cimg_svg_render(cimg_svg *d, double x, double y, double w, double h, int out_width, int out_height) {
    if (!d->handle || out_width <= 0 || out_height <= 0 || w <= 0 || h <= 0) return -1;
    free(d->rows);
    d->rows = NULL;
    d->out_width = d->out_height = 0;
    // cairo's image surfaces stop at 32,767 pixels a side.
    if (out_width > 32767 || out_height > 32767) {
        snprintf(d->message, sizeof d->message, "%dx%d pixels: more than cairo draws", out_width, out_height);
        return -1;
    }
    // ARGB32's stride is 4 bytes a pixel, so cairo draws straight into the
    // rows, which are unpremultiplied where they lie: no second buffer of
    // the picture and no copy of it.
    d->rows = calloc((size_t)out_width * out_height, 4);
    void *surface = d->rows ? rsvg.surfaceForData(d->rows, CAIRO_FORMAT_ARGB32, out_width, out_height, out_width * 4)
                            : NULL;
    if (!surface || rsvg.surfaceStatus(surface) != 0) {
        if (surface) rsvg.surfaceDestroy(surface);
        snprintf(d->message, sizeof d->message, "no memory for %dx%d pixels", out_width, out_height);
        return -1;
    }
    void *cr = rsvg.create(surface);
    // The document's rectangle (x, y, w, h) fills the surface, stretched
    // when the surface has another shape: the scale is cairo's, and the
    // viewport, in the document's own units, has the document's shape, so
    // librsvg letterboxes nothing.
    rsvg.scale(cr, out_width / w, out_height / h);
    RsvgRectangle viewport = {-x, -y, d->width, d->height};
    GErrorLike *error = NULL;
    int ok = rsvg.render(d->handle, cr, &viewport, &error);
    rsvg.destroy(cr);
    rsvg.surfaceFlush(surface);
    rsvg.surfaceDestroy(surface);
    if (!ok) {
        take_error(d, error, "librsvg could not render it");
        return -1;
    }
    // cairo's ARGB32 is premultiplied, in native-endian words.
    uint32_t *pixel = (uint32_t *)d->rows;
    for (size_t i = 0, n = (size_t)out_width * out_height; i < n; i++) {
        uint32_t p = pixel[i];
        unsigned a = p >> 24, r = p >> 16 & 0xFF, g = p >> 8 & 0xFF, b = p & 0xFF;
        if (a && a < 255) {
            r = (r * 255 + a / 2) / a;
            g = (g * 255 + a / 2) / a;
            b = (b * 255 + a / 2) / a;
        }
        uint8_t *out = (uint8_t *)&pixel[i];
        out[0] = (uint8_t)(r > 255 ? 255 : r);
        out[1] = (uint8_t)(g > 255 ? 255 : g);
        out[2] = (uint8_t)(b > 255 ? 255 : b);
        out[3] = (uint8_t)a;
    }
    d->out_width = out_width;
    d->out_height = out_height;
    return 0;
}

const uint8_t *cimg_svg_row(const cimg_svg *d, int y) {
    return d->rows && y >= 0 && y < d->out_height ? d->rows + (size_t)y * d->out_width * 4 : NULL;
}

const char *cimg_svg_message(const cimg_svg *d) { return d->message; }

void cimg_svg_close(cimg_svg *d) {
    if (!d) return;
    if (d->handle) rsvg.unref(d->handle);
    free(d->rows);
    free(d);
}
