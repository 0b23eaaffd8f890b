#define _GNU_SOURCE   // fread_unlocked
#include "CImageShim.h"
#include "gif_lzw.h"
#include <gif_lib.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

// giflib reports errors by return code, never by longjmp, and never prints:
// the shim only keeps its structures out of Swift and names its errors.
// giflib reads the records; the image data is decoded by gif_lzw.c.
enum image_state {
    IMAGE_NONE,      // between images: the next record may be read
    IMAGE_UNREAD,    // a descriptor read, none of its data
    IMAGE_STARTED,   // data being decoded by `lzw`
};

struct cimg_gif {
    GifFileType *gif;
    FILE *file;
    enum image_state state;
    gif_lzw *lzw;
    GifByteType *first_block;  // DGifGetCode's, handed to `lzw` first
    cimg_gif_frame pending;   // the graphics control read before the next image
    int loop_count;
    char message[256];
};

// giflib reads a byte or a sub-block at a time: a locked fread each would
// cost a lock round trip per 255 bytes once the process has a second
// thread (the decode runs on one, RowPipeline). The file is only ever read
// by the thread decoding it.
static int on_read(GifFileType *gif, GifByteType *out, int count) {
    cimg_gif *d = (cimg_gif *)gif->UserData;
    return (int)fread_unlocked(out, 1, (size_t)count, d->file);
}

static int fail(cimg_gif *d, int code) {
    const char *text = GifErrorString(code);
    snprintf(d->message, sizeof d->message, "%s", text ? text : "unknown giflib error");
    return -1;
}

static void reset_control(cimg_gif *d) {
    memset(&d->pending, 0, sizeof d->pending);
    d->pending.transparent = -1;
}

cimg_gif *cimg_gif_open(FILE *file) {
    cimg_gif *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->file = file;
    d->loop_count = -1;
    reset_control(d);
    return d;
}

int cimg_gif_read_header(cimg_gif *d, uint32_t *width, uint32_t *height) {
    int error = 0;
    d->gif = DGifOpen(d, on_read, &error);
    if (!d->gif) return fail(d, error);
    *width = (uint32_t)(d->gif->SWidth > 0 ? d->gif->SWidth : 0);
    *height = (uint32_t)(d->gif->SHeight > 0 ? d->gif->SHeight : 0);
    return 0;
}

// The NETSCAPE2.0 block's sub-block: 1, then the loop count (0 = forever).
// giflib has already read the terminator when `block` is NULL: asking for
// one more sub-block then would eat the next record's first byte.
static int read_application(cimg_gif *d, GifByteType *block) {
    int netscape = block && block[0] >= 11 && memcmp(block + 1, "NETSCAPE2.0", 11) == 0;
    GifByteType *next = block;
    while (next) {
        if (DGifGetExtensionNext(d->gif, &next) != GIF_OK) return fail(d, d->gif->Error);
        if (netscape && next && next[0] >= 3 && next[1] == 1) d->loop_count = next[2] | (next[3] << 8);
    }
    return 0;
}

static int read_extension(cimg_gif *d) {
    int code = 0;
    GifByteType *block = NULL;
    if (DGifGetExtension(d->gif, &code, &block) != GIF_OK) return fail(d, d->gif->Error);
    if (code == APPLICATION_EXT_FUNC_CODE) return read_application(d, block);
    if (code == GRAPHICS_EXT_FUNC_CODE && block && block[0] >= 4) {
        GraphicsControlBlock gcb;
        if (DGifExtensionToGCB(block[0], block + 1, &gcb) == GIF_OK) {
            d->pending.disposal = gcb.DisposalMode;
            d->pending.delay_cs = gcb.DelayTime;
            d->pending.transparent = gcb.TransparentColor;
        }
    }
    GifByteType *next = block;
    while (next) {
        if (DGifGetExtensionNext(d->gif, &next) != GIF_OK) return fail(d, d->gif->Error);
    }
    return 0;
}

int cimg_gif_next_frame(cimg_gif *d, cimg_gif_frame *frame) {
    // A frame's lines need not all be read: the rest of its data is passed over.
    if (d->state != IMAGE_NONE && cimg_gif_skip_image(d) != 0) return -1;
    for (;;) {
        GifRecordType type = UNDEFINED_RECORD_TYPE;
        if (DGifGetRecordType(d->gif, &type) != GIF_OK) return fail(d, d->gif->Error);
        if (type == TERMINATE_RECORD_TYPE) return 1;
        if (type == EXTENSION_RECORD_TYPE) {
            if (read_extension(d) != 0) return -1;
            continue;
        }
        if (type != IMAGE_DESC_RECORD_TYPE) return fail(d, D_GIF_ERR_WRONG_RECORD);
        if (DGifGetImageDesc(d->gif) != GIF_OK) return fail(d, d->gif->Error);
        GifImageDesc *desc = &d->gif->Image;
        *frame = d->pending;
        frame->left = (uint32_t)(desc->Left > 0 ? desc->Left : 0);
        frame->top = (uint32_t)(desc->Top > 0 ? desc->Top : 0);
        frame->width = (uint32_t)(desc->Width > 0 ? desc->Width : 0);
        frame->height = (uint32_t)(desc->Height > 0 ? desc->Height : 0);
        frame->interlaced = desc->Interlace ? 1 : 0;
        reset_control(d);
        d->state = IMAGE_UNREAD;
        // giflib keeps a record per image read (SavedImages), with a copy of
        // its colour map; nothing here needs the copies, and freeing them
        // leaves 20,000 frames about a megabyte of records, not 15.
        if (d->gif->ImageCount > 0 && d->gif->SavedImages) {
            SavedImage *saved = &d->gif->SavedImages[d->gif->ImageCount - 1];
            if (saved->ImageDesc.ColorMap && saved->ImageDesc.ColorMap != desc->ColorMap) {
                GifFreeMapObject(saved->ImageDesc.ColorMap);
                saved->ImageDesc.ColorMap = NULL;
            }
        }
        return 0;
    }
}

int cimg_gif_palette(const cimg_gif *d, uint8_t rgb[768]) {
    const ColorMapObject *map = d->gif->Image.ColorMap ? d->gif->Image.ColorMap : d->gif->SColorMap;
    if (!map || !map->Colors) return 0;
    int count = map->ColorCount > 256 ? 256 : map->ColorCount;
    for (int i = 0; i < count; i++) {
        rgb[i * 3] = map->Colors[i].Red;
        rgb[i * 3 + 1] = map->Colors[i].Green;
        rgb[i * 3 + 2] = map->Colors[i].Blue;
    }
    return count;
}

// The LZW decoder's source: DGifGetCode's first sub-block, then the rest.
static int next_block(void *source, const uint8_t **block) {
    cimg_gif *d = source;
    GifByteType *next = d->first_block;
    d->first_block = NULL;
    if (!next && DGifGetCodeNext(d->gif, &next) != GIF_OK) return -1;
    if (!next) return 0;
    *block = next + 1;
    return next[0];
}

static int start_image(cimg_gif *d) {
    if (!d->lzw && !(d->lzw = calloc(1, sizeof *d->lzw))) {
        snprintf(d->message, sizeof d->message, "out of memory");
        return -1;
    }
    int min_size = 0;
    if (DGifGetCode(d->gif, &min_size, &d->first_block) != GIF_OK) {
        d->state = IMAGE_NONE;
        return fail(d, d->gif->Error);
    }
    d->state = IMAGE_STARTED;
    int refused = gif_lzw_start(d->lzw, min_size, next_block, d);
    if (!d->first_block) d->lzw->blocks_ended = 1;
    if (refused) {
        snprintf(d->message, sizeof d->message, "LZW code size %d is out of range", min_size);
        return -1;
    }
    return 0;
}

int cimg_gif_read_line(cimg_gif *d, uint8_t *indices, uint32_t count) {
    if (d->state == IMAGE_NONE) {
        snprintf(d->message, sizeof d->message, "no image to read");
        return -1;
    }
    if (d->state == IMAGE_UNREAD && start_image(d) != 0) return -1;
    const char *problem = gif_lzw_read(d->lzw, indices, (int)count);
    if (!problem) return 0;
    snprintf(d->message, sizeof d->message, "%s", problem);
    return -1;
}

int cimg_gif_skip_image(cimg_gif *d) {
    enum image_state state = d->state;
    d->state = IMAGE_NONE;   // a failure here is not retried from the middle
    if (state == IMAGE_STARTED) return gif_lzw_drain(d->lzw) == 0 ? 0 : fail(d, d->gif->Error);
    if (state != IMAGE_UNREAD) return 0;
    int size = 0;
    if (DGifGetCode(d->gif, &size, &d->first_block) != GIF_OK) return fail(d, d->gif->Error);
    // No first block: the terminator is read already.
    if (!d->first_block) return 0;
    const uint8_t *block = NULL;
    int read;
    while ((read = next_block(d, &block)) > 0) {}
    return read == 0 ? 0 : fail(d, d->gif->Error);
}

int cimg_gif_loop_count(const cimg_gif *d) { return d->loop_count; }

const char *cimg_gif_message(const cimg_gif *d) { return d->message; }

void cimg_gif_close(cimg_gif *d) {
    if (!d) return;
    if (d->gif) {
        int error = 0;
        DGifCloseFile(d->gif, &error);
    }
    if (d->lzw) gif_lzw_free(d->lzw);
    free(d->lzw);
    free(d);
}
