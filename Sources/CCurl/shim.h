#ifndef URLCACHE_CCURL_SHIM_H
#define URLCACHE_CCURL_SHIM_H
// curl_easy_setopt is variadic, which Swift cannot
// call: one typed wrapper per argument type (as GRDB's SQLite shim does).
#include <curl/curl.h>

typedef size_t (*ccurl_data_fn)(char *data, size_t size, size_t count, void *user);
typedef int (*ccurl_xferinfo_fn)(void *user, curl_off_t dltotal, curl_off_t dlnow,
                                 curl_off_t ultotal, curl_off_t ulnow);

static inline CURLcode ccurl_setopt_long(CURL *h, CURLoption o, long v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode ccurl_setopt_off(CURL *h, CURLoption o, curl_off_t v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode ccurl_setopt_string(CURL *h, CURLoption o, const char *v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode ccurl_setopt_pointer(CURL *h, CURLoption o, void *v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode ccurl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode ccurl_setopt_data_fn(CURL *h, CURLoption o, ccurl_data_fn v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode ccurl_setopt_xferinfo_fn(CURL *h, ccurl_xferinfo_fn v) {
    return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, v);
}
// CURL_ERROR_SIZE is a macro; Swift sees no constant for it.
static inline size_t ccurl_error_size(void) { return CURL_ERROR_SIZE; }

#endif
