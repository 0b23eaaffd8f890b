#ifndef URLCACHE_CCURLLOADER_MULTI_API_H
#define URLCACHE_CCURLLOADER_MULTI_API_H
// libcurl's multi functions as loader.c found them, for shared_multi.c
// alone (not part of the module's interface).
#include <curl/curl.h>

CURLM *api_multi_init(void);
CURLMcode api_multi_add_handle(CURLM *multi, CURL *easy);
CURLMcode api_multi_remove_handle(CURLM *multi, CURL *easy);
CURLMcode api_multi_perform(CURLM *multi, int *running);
CURLMcode api_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout_ms, int *ready);
CURLMcode api_multi_wakeup(CURLM *multi);
CURLMsg *api_multi_info_read(CURLM *multi, int *left);

#endif
