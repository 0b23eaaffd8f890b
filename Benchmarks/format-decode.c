/* The references for the speed goals: each library decoding a file whole
 * and nothing else, as the issues name them: giflib reading every line of
 * the first frame, libwebp's WebPDecodeRGBA, libtiff decoding each strip as
 * it is coded (TIFFReadEncodedStrip, as urlcache reads 8-bit RGB), libheif's decode of the primary
 * image to RGBA. Built and run by Benchmarks/formats.sh.
 * usage: format-decode gif|webp|tiff|heif FILE */
#include <gif_lib.h>
#include <libheif/heif.h>
#include <tiffio.h>
#include <webp/decode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int gif(const char *path) {
    int error = 0;
    GifFileType *g = DGifOpenFileName(path, &error);
    if (!g) return 1;
    GifRecordType type;
    do {
        if (DGifGetRecordType(g, &type) != GIF_OK) return 1;
        if (type == EXTENSION_RECORD_TYPE) {
            int code; GifByteType *ext;
            DGifGetExtension(g, &code, &ext);
            while (ext) DGifGetExtensionNext(g, &ext);
        }
    } while (type != IMAGE_DESC_RECORD_TYPE && type != TERMINATE_RECORD_TYPE);
    if (type != IMAGE_DESC_RECORD_TYPE || DGifGetImageDesc(g) != GIF_OK) return 1;
    GifPixelType *line = malloc(g->Image.Width);
    for (int y = 0; y < g->Image.Height; y++) if (DGifGetLine(g, line, g->Image.Width) != GIF_OK) return 1;
    free(line);
    DGifCloseFile(g, &error);
    return 0;
}

static int webp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return 1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    uint8_t *data = malloc(n);
    if (fread(data, 1, n, f) != (size_t)n) return 1;
    int w, h;
    uint8_t *rgba = WebPDecodeRGBA(data, n, &w, &h);
    if (!rgba) return 1;
    WebPFree(rgba);
    free(data);
    return 0;
}

static int tiff(const char *path) {
    TIFF *t = TIFFOpen(path, "r");
    if (!t) return 1;
    tmsize_t size = TIFFStripSize(t);
    uint8_t *strip = malloc((size_t)size);
    for (uint32_t s = 0; s < TIFFNumberOfStrips(t); s++) if (TIFFReadEncodedStrip(t, s, strip, -1) < 0) return 1;
    free(strip);
    TIFFClose(t);
    return 0;
}

static int heif(const char *path) {
    struct heif_context *c = heif_context_alloc();
    struct heif_image_handle *handle;
    struct heif_image *image;
    if (heif_context_read_from_file(c, path, NULL).code != heif_error_Ok ||
        heif_context_get_primary_image_handle(c, &handle).code != heif_error_Ok ||
        heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, NULL).code != heif_error_Ok)
        return 1;
    heif_image_release(image);
    heif_image_handle_release(handle);
    heif_context_free(c);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: format-decode gif|webp|tiff|heif FILE\n"); return 2; }
    if (strcmp(argv[1], "gif") == 0) return gif(argv[2]);
    if (strcmp(argv[1], "tiff") == 0) return tiff(argv[2]);
    if (strcmp(argv[1], "heif") == 0) return heif(argv[2]);
    return webp(argv[2]);
}
