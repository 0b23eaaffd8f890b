#include "CImageShim.h"
#include <stdio.h>
#include <jpeglib.h>
#include <jerror.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

struct cimg_error {
    struct jpeg_error_mgr base;
    jmp_buf jump;
};

struct cimg_jpeg {
    struct jpeg_decompress_struct info;
    struct cimg_error error;
    int created, started;
    int truncated;
    uint8_t *cmyk_row;
    cimg_icc *cmyk_profile;  // the file's CMYK profile, applied to cmyk_row
    JOCTET *icc;
    unsigned int icc_length;
    char message[JMSG_LENGTH_MAX + 64];
};

static void on_error_exit(j_common_ptr info) {
    cimg_jpeg *d = (cimg_jpeg *)info->client_data;
    char text[JMSG_LENGTH_MAX];
    info->err->format_message(info, text);
    snprintf(d->message, sizeof d->message, "%s", text);
    longjmp(d->error.jump, 1);
}

static void on_message(j_common_ptr info, int level) {
    // Warnings (a truncated tail, corrupt data the decoder skips) never
    // stop decoding: like a browser, we show what could be decoded. A
    // truncated file is remembered, so that the caller can say so.
    if (level < 0) {
        info->err->num_warnings++;
        if (info->err->msg_code == JWRN_JPEG_EOF) ((cimg_jpeg *)info->client_data)->truncated = 1;
    }
}

int cimg_jpeg_truncated(const cimg_jpeg *d) { return d->truncated; }

cimg_jpeg *cimg_jpeg_open(FILE *file) {
    cimg_jpeg *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->info.err = jpeg_std_error(&d->error.base);
    d->error.base.error_exit = on_error_exit;
    d->error.base.emit_message = on_message;
    d->info.client_data = d;
    if (setjmp(d->error.jump)) return d;
    jpeg_create_decompress(&d->info);
    d->created = 1;
    jpeg_stdio_src(&d->info, file);
    jpeg_save_markers(&d->info, JPEG_APP0 + 1, 0xffff);
    // ICC_PROFILE chunks: libjpeg-turbo joins them (jpeg_read_icc_profile).
    jpeg_save_markers(&d->info, JPEG_APP0 + 2, 0xffff);
    return d;
}

static unsigned read16(const uint8_t *p, int little) {
    return little ? (unsigned)(p[0] | p[1] << 8) : (unsigned)(p[0] << 8 | p[1]);
}

static uint32_t read32(const uint8_t *p, int little) {
    return little ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24
                  : (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

// The Orientation tag (0x0112) of IFD0 in an "Exif\0\0" APP1 segment; every
// offset is checked against the segment, which comes from outside.
static int exif_orientation(const uint8_t *data, size_t length) {
    if (length < 14 || memcmp(data, "Exif\0\0", 6) != 0) return 1;
    const uint8_t *tiff = data + 6;
    size_t size = length - 6;
    int little;
    if (memcmp(tiff, "II*\0", 4) == 0) little = 1;
    else if (memcmp(tiff, "MM\0*", 4) == 0) little = 0;
    else return 1;
    uint32_t ifd = read32(tiff + 4, little);
    if (ifd > size || size - ifd < 2) return 1;
    unsigned count = read16(tiff + ifd, little);
    for (unsigned i = 0; i < count; i++) {
        size_t entry = (size_t)ifd + 2 + (size_t)i * 12;
        if (entry + 12 > size) return 1;
        if (read16(tiff + entry, little) == 0x0112) {
            unsigned value = read16(tiff + entry + 8, little);
            return value >= 1 && value <= 8 ? (int)value : 1;
        }
    }
    return 1;
}

int cimg_jpeg_read_header(cimg_jpeg *d, uint32_t *width, uint32_t *height, int *orientation) {
    if (!d->created) return -1;
    if (setjmp(d->error.jump)) return -1;
    jpeg_read_header(&d->info, TRUE);
    *orientation = 1;
    for (jpeg_saved_marker_ptr m = d->info.marker_list; m; m = m->next) {
        if (m->marker == JPEG_APP0 + 1) {
            *orientation = exif_orientation(m->data, m->data_length);
            break;
        }
    }
    *width = d->info.image_width;
    *height = d->info.image_height;
    return 0;
}

int cimg_jpeg_start(cimg_jpeg *d, unsigned scale_num, uint32_t *out_width, uint32_t *out_height) {
    if (setjmp(d->error.jump)) return -1;
    d->info.scale_num = scale_num < 1 ? 1 : scale_num > 8 ? 8 : scale_num;
    d->info.scale_denom = 8;
    J_COLOR_SPACE in = d->info.jpeg_color_space;
    d->info.out_color_space = (in == JCS_CMYK || in == JCS_YCCK) ? JCS_CMYK : JCS_RGB;
    d->info.dct_method = JDCT_ISLOW;
    jpeg_start_decompress(&d->info);
    d->started = 1;
    if (d->info.out_color_space == JCS_CMYK) {
        d->cmyk_row = malloc((size_t)d->info.output_width * 4);
        if (!d->cmyk_row) {
            snprintf(d->message, sizeof d->message, "out of memory");
            return -1;
        }
        // A CMYK profile (as Photoshop embeds) says what the inks make;
        // without one (or lcms2), the plain inversion below. Read after
        // the last libjpeg call here: cimg_jpeg_icc sets its own setjmp.
        const uint8_t *icc;
        size_t length;
        if (cimg_jpeg_icc(d, &icc, &length) == 0) {
            d->cmyk_profile = cimg_icc_open_cmyk(icc, length, d->info.saw_Adobe_marker);
        }
    }
    *out_width = d->info.output_width;
    *out_height = d->info.output_height;
    return 0;
}

int cimg_jpeg_crop(cimg_jpeg *d, uint32_t *x_offset, uint32_t *width, uint32_t skip_rows) {
    if (setjmp(d->error.jump)) return -1;
    JDIMENSION x = *x_offset, w = *width;
    if (x > 0 || w < d->info.output_width) jpeg_crop_scanline(&d->info, &x, &w);
    if (skip_rows > 0) jpeg_skip_scanlines(&d->info, skip_rows);
    *x_offset = x;
    *width = w;
    return 0;
}

int cimg_jpeg_read_row(cimg_jpeg *d, uint8_t *row) {
    if (setjmp(d->error.jump)) return -1;
    if (d->info.output_scanline >= d->info.output_height) {
        snprintf(d->message, sizeof d->message, "read past the last row");
        return -1;
    }
    if (!d->cmyk_row) {
        JSAMPROW rows[1] = { row };
        jpeg_read_scanlines(&d->info, rows, 1);
        return 0;
    }
    JSAMPROW rows[1] = { d->cmyk_row };
    jpeg_read_scanlines(&d->info, rows, 1);
    if (d->cmyk_profile) {
        cimg_icc_convert(d->cmyk_profile, d->cmyk_row, row, d->info.output_width);
        return 0;
    }
    // Adobe writes CMYK inverted (255 = no ink); others write it plainly.
    int inverted = d->info.saw_Adobe_marker;
    for (JDIMENSION x = 0; x < d->info.output_width; x++) {
        const uint8_t *p = d->cmyk_row + (size_t)x * 4;
        unsigned c = inverted ? p[0] : 255 - p[0], m = inverted ? p[1] : 255 - p[1];
        unsigned y = inverted ? p[2] : 255 - p[2], k = inverted ? p[3] : 255 - p[3];
        row[x * 3 + 0] = (uint8_t)((c * k + 127) / 255);
        row[x * 3 + 1] = (uint8_t)((m * k + 127) / 255);
        row[x * 3 + 2] = (uint8_t)((y * k + 127) / 255);
    }
    return 0;
}

const char *cimg_jpeg_message(const cimg_jpeg *d) { return d->message; }

void cimg_jpeg_close(cimg_jpeg *d) {
    if (!d) return;
    if (d->created) {
        // jpeg_abort releases everything even mid-decode; destroy frees the rest.
        if (!setjmp(d->error.jump)) jpeg_destroy_decompress(&d->info);
    }
    free(d->cmyk_row);
    cimg_icc_close(d->cmyk_profile);
    free(d->icc);
    free(d);
}

int cimg_jpeg_icc(cimg_jpeg *d, const uint8_t **profile, size_t *length) {
    if (!d->created) return -1;
    if (!d->icc) {
        if (setjmp(d->error.jump)) return -1;
        if (!jpeg_read_icc_profile(&d->info, &d->icc, &d->icc_length)) return -1;
    }
    // A grey profile on a colour picture would make it grey: not applied.
    if (cimg_icc_is_grey(d->icc, d->icc_length) && d->info.num_components != 1) return -1;
    *profile = d->icc;
    *length = d->icc_length;
    return 0;
}
