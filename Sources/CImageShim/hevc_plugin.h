// The HEVC decoder heif_shim.c registers with libheif: libheif's own
// functions it needs, found by heif_shim.c in the library it opened.
// Not part of the module's interface.
#ifndef CIMG_HEVC_PLUGIN_H
#define CIMG_HEVC_PLUGIN_H

#include <libheif/heif.h>

struct cimg_hevc_heif {
    struct heif_error (*create)(int, int, enum heif_colorspace, enum heif_chroma, struct heif_image **);
    struct heif_error (*addPlane)(struct heif_image *, enum heif_channel, int, int, int);
    uint8_t *(*plane)(struct heif_image *, enum heif_channel, int *);
    void (*release)(const struct heif_image *);
    struct heif_color_profile_nclx *(*nclxAlloc)(void);
    struct heif_error (*setPrimaries)(struct heif_color_profile_nclx *, uint16_t);
    struct heif_error (*setTransfer)(struct heif_color_profile_nclx *, uint16_t);
    struct heif_error (*setMatrix)(struct heif_color_profile_nclx *, uint16_t);
    struct heif_error (*setNclx)(struct heif_image *, const struct heif_color_profile_nclx *);
    void (*nclxFree)(struct heif_color_profile_nclx *);
    struct heif_error (*registerDecoder)(const struct heif_decoder_plugin *);
};

/// Registers libde265 with two workers as libheif's HEVC decoder, ahead of
/// its own; does nothing when libde265 lacks an entry point.
void cimg_hevc_register(const struct cimg_hevc_heif *functions);

/// Around every heif_decode_image (one at a time): whether the decoder is
/// to hand an 8-bit colour picture over as planar RGB (`rgb`: no grid, no
/// alpha), converted with `container`'s matrix and range when the file
/// has an nclx box (NULL: the stream's own, as libheif takes them).
void cimg_hevc_begin(int rgb, const struct heif_color_profile_nclx *container);
void cimg_hevc_end(void);

#endif
