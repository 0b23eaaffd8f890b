#ifndef URLCACHE_CCRYPTO_SHIM_H
#define URLCACHE_CCRYPTO_SHIM_H
// OpenSSL's libcrypto, for SHA-256 only: one typed call over the EVP
// interface (the plain SHA256() is deprecated in OpenSSL 3).
#include <stddef.h>
#include <openssl/evp.h>

/// Writes the SHA-256 of `count` bytes at `data` into `digest` (32 bytes).
/// Returns 0, or -1 if libcrypto failed (out of memory).
static inline int ccrypto_sha256(const void *data, size_t count, unsigned char *digest) {
    unsigned int size = 0;
    return EVP_Digest(data, count, digest, &size, EVP_sha256(), NULL) == 1 && size == 32 ? 0 : -1;
}

#endif
