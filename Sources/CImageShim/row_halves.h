// A picture's rows shared between the calling thread and one more, as the
// conversions that take most of a decode's time (ycbcr_rgb.c's YCbCr to
// RGB, tiff_coded.c's CMYK inks) share them between two cores. Not part of
// the module's interface.
#ifndef CIMG_ROW_HALVES_H
#define CIMG_ROW_HALVES_H

/// `body(context, first, last)` over rows [0, rows): with `split` (and two
/// rows or more, and a thread to be had) the lower half on a thread of its
/// own while this one does the upper, else all here. 0 when every call
/// returned 0, else -1.
int cimg_row_halves(int rows, int split, int (*body)(void *context, int first, int last), void *context);

#endif
