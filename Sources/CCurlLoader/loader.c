#include "CCurlLoader.h"
#include "multi_api.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int status = -1;
static char error[256] = "libcurl was not loaded";

#define FIND(field, name)                                                          \
    if (!(*(void **)&api.field = dlsym(library, name))) {                          \
        snprintf(error, sizeof error, "libcurl has no %s", name);                  \
        return;                                                                    \
    }

static void load(void) {
    // The runtime library the -dev package depends on (libcurl4, OpenSSL
    // flavour), else Debian's GnuTLS flavour: both have the same API.
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libcurl-gnutls.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(error, sizeof error, "cannot load libcurl: %s", why ? why : "not found");
        return;
    }
    FIND(global_init, "curl_global_init")
    FIND(easy_init, "curl_easy_init")
    FIND(easy_cleanup, "curl_easy_cleanup")
    FIND(easy_strerror, "curl_easy_strerror")
    FIND(easy_setopt, "curl_easy_setopt")
    FIND(slist_append, "curl_slist_append")
    FIND(slist_free_all, "curl_slist_free_all")
    FIND(multi_init, "curl_multi_init")
    FIND(multi_add_handle, "curl_multi_add_handle")
    FIND(multi_remove_handle, "curl_multi_remove_handle")
    FIND(multi_perform, "curl_multi_perform")
    FIND(multi_poll, "curl_multi_poll")
    FIND(multi_wakeup, "curl_multi_wakeup")
    FIND(multi_info_read, "curl_multi_info_read")
    // curl_global_init is not thread-safe: pthread_once runs it once.
    if (api.global_init(CURL_GLOBAL_ALL) != CURLE_OK) {
        snprintf(error, sizeof error, "libcurl could not initialise");
        return;
    }
    status = 0;
}

int ccurl_load(void) {
    pthread_once(&once, load);
    return status;
}

const char *ccurl_load_error(void) { return error; }

CURL *ccurl_easy_init(void) { return api.easy_init(); }
void ccurl_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }
const char *ccurl_easy_strerror(CURLcode code) { return api.easy_strerror(code); }
struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *text) { return api.slist_append(list, text); }
void ccurl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }

CURLcode ccurl_setopt_long(CURL *h, CURLoption o, long v) { return api.easy_setopt(h, o, v); }
CURLcode ccurl_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return api.easy_setopt(h, o, v); }
CURLcode ccurl_setopt_string(CURL *h, CURLoption o, const char *v) { return api.easy_setopt(h, o, v); }
CURLcode ccurl_setopt_pointer(CURL *h, CURLoption o, void *v) { return api.easy_setopt(h, o, v); }
CURLcode ccurl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return api.easy_setopt(h, o, v); }
CURLcode ccurl_setopt_data_fn(CURL *h, CURLoption o, ccurl_data_fn v) { return api.easy_setopt(h, o, v); }
CURLcode ccurl_setopt_xferinfo_fn(CURL *h, ccurl_xferinfo_fn v) { return api.easy_setopt(h, CURLOPT_XFERINFOFUNCTION, v); }

CURLM *api_multi_init(void) { return api.multi_init(); }
CURLMcode api_multi_add_handle(CURLM *m, CURL *e) { return api.multi_add_handle(m, e); }
CURLMcode api_multi_remove_handle(CURLM *m, CURL *e) { return api.multi_remove_handle(m, e); }
CURLMcode api_multi_perform(CURLM *m, int *running) { return api.multi_perform(m, running); }
CURLMcode api_multi_poll(CURLM *m, struct curl_waitfd *extra, unsigned int count, int timeout_ms, int *ready) {
    return api.multi_poll(m, extra, count, timeout_ms, ready);
}
CURLMcode api_multi_wakeup(CURLM *m) { return api.multi_wakeup(m); }
CURLMsg *api_multi_info_read(CURLM *m, int *left) { return api.multi_info_read(m, left); }

size_t ccurl_error_size(void) { return CURL_ERROR_SIZE; }
