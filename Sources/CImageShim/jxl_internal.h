// libjxl's functions, found by cimg_jxl_load (jxl_loader.c) on the first
// JPEG XL, and the quiet stderr its calls run with; shared by jxl_loader.c
// and jxl_shim.c. Not part of the module's interface.
#ifndef CIMG_JXL_INTERNAL_H
#define CIMG_JXL_INTERNAL_H

#include <jxl/decode.h>
#include <jxl/encode.h>

struct libjxl {
    JxlDecoder *(*create)(const JxlMemoryManager *);
    void (*destroy)(JxlDecoder *);
    void (*rewind)(JxlDecoder *);
    JxlDecoderStatus (*subscribe)(JxlDecoder *, int);
    JxlDecoderStatus (*setInput)(JxlDecoder *, const uint8_t *, size_t);
    void (*closeInput)(JxlDecoder *);
    JxlDecoderStatus (*process)(JxlDecoder *);
    JxlDecoderStatus (*basicInfo)(const JxlDecoder *, JxlBasicInfo *);
    JxlDecoderStatus (*frameHeader)(const JxlDecoder *, JxlFrameHeader *);
    JxlDecoderStatus (*outSize)(const JxlDecoder *, const JxlPixelFormat *, size_t *);
    JxlDecoderStatus (*setOut)(JxlDecoder *, const JxlPixelFormat *, void *, size_t);
    JxlDecoderStatus (*encodedProfile)(const JxlDecoder *, const JxlPixelFormat *, JxlColorProfileTarget,
                                       JxlColorEncoding *);
    JxlDecoderStatus (*iccSize)(const JxlDecoder *, const JxlPixelFormat *, JxlColorProfileTarget, size_t *);
    JxlDecoderStatus (*icc)(const JxlDecoder *, const JxlPixelFormat *, JxlColorProfileTarget, uint8_t *, size_t);
    JxlDecoderStatus (*preferred)(JxlDecoder *, const JxlColorEncoding *);
    void (*toSRGB)(JxlColorEncoding *, JXL_BOOL);
    JxlDecoderStatus (*setRunner)(JxlDecoder *, JxlParallelRunner, void *);
    // libjxl_threads, when it is there: the decode on every core.
    void *(*runnerCreate)(const JxlMemoryManager *, size_t);
    void (*runnerDestroy)(void *);
    JxlParallelRunner runner;
    size_t (*defaultThreads)(void);
};
// Hidden: a library loaded later must not bind a symbol of its own to it.
__attribute__((visibility("hidden"))) extern struct libjxl jxl;

/// fd 2 on /dev/null, holding the lock printError takes too; returns the
/// saved fd for jxl_quiet_end (see jxl_loader.c).
int jxl_quiet_begin(void);
void jxl_quiet_end(int saved);

#endif
