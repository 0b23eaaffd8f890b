/* Writes a YCCK JPEG (Adobe transform 2), which neither PIL nor cjpeg can:
 * reads width height and inverted CMYK bytes (Adobe's convention, 255 = no
 * ink) from stdin, writes the JPEG to stdout. Built and run by
 * make-fixtures.py: cc make-ycck.c -ljpeg */
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>

int main(void) {
    int width, height;
    if (scanf("%d %d", &width, &height) != 2 || getchar() != '\n') return 1;
    unsigned char *cmyk = malloc((size_t)width * height * 4);
    if (!cmyk || fread(cmyk, 4, (size_t)width * height, stdin) != (size_t)width * height) return 1;
    struct jpeg_compress_struct c;
    struct jpeg_error_mgr err;
    c.err = jpeg_std_error(&err);
    jpeg_create_compress(&c);
    jpeg_stdio_dest(&c, stdout);
    c.image_width = width;
    c.image_height = height;
    c.input_components = 4;
    c.in_color_space = JCS_CMYK;
    jpeg_set_defaults(&c);
    jpeg_set_colorspace(&c, JCS_YCCK); /* also writes the Adobe marker, transform 2 */
    jpeg_set_quality(&c, 95, TRUE);
    jpeg_start_compress(&c, TRUE);
    while (c.next_scanline < c.image_height) {
        JSAMPROW row = cmyk + (size_t)c.next_scanline * width * 4;
        jpeg_write_scanlines(&c, &row, 1);
    }
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
    free(cmyk);
    return 0;
}
