#ifndef URLCACHE_CCURL_SHIM_H
#define URLCACHE_CCURL_SHIM_H
// libcurl's declarations only: nothing links against libcurl. CCurlLoader
// opens it on the first transfer (see there why).
#include <curl/curl.h>
#endif
