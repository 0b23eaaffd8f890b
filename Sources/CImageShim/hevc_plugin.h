// The HEVC decoder heif_shim.c registers with libheif (hevc_plugin.c).
// Not part of the module's interface.
#ifndef CIMG_HEVC_PLUGIN_H
#define CIMG_HEVC_PLUGIN_H

#include <libheif/heif.h>

/// Registers libde265 with two workers as libheif's HEVC decoder, ahead of
/// its own, through `libheif` (the library heif_shim.c opened); does
/// nothing when libheif or libde265 lacks an entry point.
void cimg_hevc_register(void *libheif);

/// Around a heif_decode_image, on its thread: whether the decoder is to
/// hand an 8-bit colour picture over as planar RGB (`rgb`: no grid, no
/// alpha), converted with `container`'s matrix and range when the file
/// has an nclx box (NULL: the stream's own, as libheif takes them).
void cimg_hevc_begin(int rgb, const struct heif_color_profile_nclx *container);
void cimg_hevc_end(void);

#endif
