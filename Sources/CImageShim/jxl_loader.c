// libjxl opened on first use (dlopen), as libavif and libheif are, and
// the lock that keeps libjxl's own printing off the terminal. The table of
// its functions is shared with the decoder, jxl_shim.c (jxl_internal.h).
#include "CImageShim.h"
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "dl_table.h"
#include "jxl_internal.h"

struct libjxl jxl;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;
static char load_error[256] = "libjxl was not loaded";

#define FIND(field, name) \
    if (!cimg_dl_find(library, name, (void **)&jxl.field, "libjxl", load_error, sizeof load_error)) return;

static void load(void) {
    static const char *const names[] = {"libjxl.so.0.7", "libjxl.so", NULL};
    void *library = cimg_dl_open(names, "libjxl", load_error, sizeof load_error);
    if (!library) return;
    FIND(create, "JxlDecoderCreate")
    FIND(destroy, "JxlDecoderDestroy")
    FIND(rewind, "JxlDecoderRewind")
    FIND(subscribe, "JxlDecoderSubscribeEvents")
    FIND(setInput, "JxlDecoderSetInput")
    FIND(closeInput, "JxlDecoderCloseInput")
    FIND(process, "JxlDecoderProcessInput")
    FIND(basicInfo, "JxlDecoderGetBasicInfo")
    FIND(frameHeader, "JxlDecoderGetFrameHeader")
    FIND(outSize, "JxlDecoderImageOutBufferSize")
    FIND(setOut, "JxlDecoderSetImageOutBuffer")
    FIND(encodedProfile, "JxlDecoderGetColorAsEncodedProfile")
    FIND(iccSize, "JxlDecoderGetICCProfileSize")
    FIND(icc, "JxlDecoderGetColorAsICCProfile")
    FIND(preferred, "JxlDecoderSetPreferredColorProfile")
    FIND(toSRGB, "JxlColorEncodingSetToSRGB")
    FIND(setRunner, "JxlDecoderSetParallelRunner")
    void *threads = dlopen("libjxl_threads.so.0.7", RTLD_NOW | RTLD_LOCAL);
    if (threads) {
        *(void **)&jxl.runnerCreate = dlsym(threads, "JxlThreadParallelRunnerCreate");
        *(void **)&jxl.runnerDestroy = dlsym(threads, "JxlThreadParallelRunnerDestroy");
        *(void **)&jxl.runner = dlsym(threads, "JxlThreadParallelRunner");
        *(void **)&jxl.defaultThreads = dlsym(threads, "JxlThreadParallelRunnerDefaultNumWorkerThreads");
    }
    loaded = 0;
}
#undef FIND

// libjxl 0.7, as Debian builds it, prints each failure's trace to stderr
// (a damaged file gives five lines), which would garble the screen and
// break the one line a bad file gets. Every libjxl call runs with fd 2 on
// /dev/null, holding a lock that our own stderr writes take too
// (printError), so that none of them is lost in the meantime. Not stdio's
// lock on stderr: libjxl prints from its worker threads, which would wait
// for it while this thread waits for them (a fuzzed file hung so).
static pthread_mutex_t stderr_lock = PTHREAD_MUTEX_INITIALIZER;

int jxl_quiet_begin(void) {
    pthread_mutex_lock(&stderr_lock);
    fflush(stderr);
    int saved = dup(2);
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (saved >= 0 && null >= 0) dup2(null, 2);
    if (null >= 0) close(null);
    return saved;
}

void jxl_quiet_end(int saved) {
    fflush(stderr);
    if (saved >= 0) {
        dup2(saved, 2);
        close(saved);
    }
    pthread_mutex_unlock(&stderr_lock);
}

int cimg_jxl_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *cimg_jxl_load_error(void) { return load_error; }

void cimg_stderr_lock(void) { pthread_mutex_lock(&stderr_lock); }
void cimg_stderr_unlock(void) { pthread_mutex_unlock(&stderr_lock); }
