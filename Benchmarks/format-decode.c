/* The references for the GIF and WebP speed goals: each library decoding a
 * file whole and nothing else, as the issue names them: giflib reading
 * every line of the first frame, libwebp's WebPDecodeRGBA. Built and run by
 * Benchmarks/formats.sh.  usage: format-decode gif|webp FILE */
#include <gif_lib.h>
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

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: format-decode gif|webp FILE\n"); return 2; }
    return strcmp(argv[1], "gif") == 0 ? gif(argv[2]) : webp(argv[2]);
}
