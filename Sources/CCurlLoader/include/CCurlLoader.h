#ifndef URLCACHE_CCURLLOADER_H
#define URLCACHE_CCURLLOADER_H
// libcurl, opened with dlopen on first use. Linked the usual way, libcurl
// and the thirty libraries it pulls in (TLS, Kerberos, LDAP, SSH, ...) cost
// every start about 5 ms of dynamic loading, though a start from a fresh
// cache never makes a request. The functions below are libcurl's own, each
// called through a pointer found once; curl_easy_setopt, which is variadic
// and Swift cannot call, gets one typed wrapper per argument type (as GRDB's
// SQLite shim does). Call ccurl_load first: the others assume it succeeded.
#include <stddef.h>
#include <time.h>
#include <curl/curl.h>

typedef size_t (*ccurl_data_fn)(char *data, size_t size, size_t count, void *user);
typedef int (*ccurl_xferinfo_fn)(void *user, curl_off_t dltotal, curl_off_t dlnow,
                                 curl_off_t ultotal, curl_off_t ulnow);

/// Opens libcurl.so.4 and runs curl_global_init, once per process, from any
/// thread. 0 on success; -1 with the reason in ccurl_load_error().
int ccurl_load(void);
const char *ccurl_load_error(void);

CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *handle);
/// Performs `handle` as curl_easy_perform does, but on the process's one
/// multi handle, so that its connections (and HTTP/2 streams) are shared
/// with every other transfer, in turn or at once (shared_multi.c).
CURLcode ccurl_shared_perform(CURL *handle);
const char *ccurl_easy_strerror(CURLcode code);
struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *text);
void ccurl_slist_free_all(struct curl_slist *list);

CURLcode ccurl_setopt_long(CURL *h, CURLoption o, long v);
CURLcode ccurl_setopt_off(CURL *h, CURLoption o, curl_off_t v);
CURLcode ccurl_setopt_string(CURL *h, CURLoption o, const char *v);
CURLcode ccurl_setopt_pointer(CURL *h, CURLoption o, void *v);
CURLcode ccurl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v);
CURLcode ccurl_setopt_data_fn(CURL *h, CURLoption o, ccurl_data_fn v);
CURLcode ccurl_setopt_xferinfo_fn(CURL *h, ccurl_xferinfo_fn v);

/// CURL_ERROR_SIZE is a macro; Swift sees no constant for it.
size_t ccurl_error_size(void);

#endif
