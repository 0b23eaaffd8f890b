/* The reference for the PNG speed goal: libpng itself reading every row of
 * a file, with the same RGBA8 transformations urlcache asks for, and
 * nothing else. Built and run by Benchmarks/speed.sh. */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: png-read-rows FILE\n"); return 2; }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 1; }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) { fprintf(stderr, "libpng error\n"); return 1; }
    png_init_io(png, f);
    png_read_info(png, info);
    png_uint_32 w, h; int depth, color, ilace;
    png_get_IHDR(png, info, &w, &h, &depth, &color, &ilace, NULL, NULL);
    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (depth == 16) png_set_scale_16(png);
    if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    png_set_filler(png, 0xff, PNG_FILLER_AFTER);
    png_read_update_info(png, info);
    png_bytep row = malloc(png_get_rowbytes(png, info));
    unsigned long sum = 0;
    for (png_uint_32 y = 0; y < h; y++) { png_read_row(png, row, NULL); sum += row[y % w]; }
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    fclose(f);
    printf("%lu\n", sum);   /* keeps the reads from being optimised away */
    return 0;
}
