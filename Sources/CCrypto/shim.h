#ifndef URLCACHE_CCRYPTO_SHIM_H
#define URLCACHE_CCRYPTO_SHIM_H
// OpenSSL's libcrypto, for SHA-256 only. The one-shot SHA256() is marked
// deprecated in OpenSSL 3 in favour of EVP_Digest, but EVP's first call
// loads openssl.cnf and the provider machinery: milliseconds on the
// screen's path to its first frame, for a hash of a URL.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <stddef.h>
#include <openssl/sha.h>

/// Writes the SHA-256 of `count` bytes at `data` into `digest` (32 bytes).
/// Returns 0, or -1 if libcrypto failed.
static inline int ccrypto_sha256(const void *data, size_t count, unsigned char *digest) {
    return SHA256((const unsigned char *)data, count, digest) != NULL ? 0 : -1;
}

#endif
