// Linear light to sRGB levels, many values at a time: the renderer's
// hottest loop (64 sub-cells a cell, three channels, every frame of an
// animation). In Swift the clamp and the float-to-integer conversion of a
// SIMD vector are generic calls made out of line, and the scalar
// conversion traps on what it cannot hold, so neither loop vectorises;
// here clang turns the first loop into packed min, max, multiply and
// convert (four or eight values an instruction), and only the two table
// reads are left a value.
#include "CImageShim.h"

enum { CHUNK = 256 };

void cimg_srgb_levels(const float *linear, float *out, size_t count,
                      const uint8_t *table, const float *levels) {
    int32_t index[CHUNK];
    for (size_t start = 0; start < count; start += CHUNK) {
        size_t n = count - start < CHUNK ? count - start : CHUNK;
        for (size_t k = 0; k < n; k++) {
            // max first, so that a NaN becomes 0 (maxss keeps its second
            // operand when either is NaN): an index is always in the table.
            float v = linear[start + k] > 0.0f ? linear[start + k] : 0.0f;
            v = v < 1.0f ? v : 1.0f;
            // Two statements, so the multiply and add round as Swift's
            // `encodeIndex` rounds them (no fused multiply-add).
            float scaled = v * 65535.0f;
            index[k] = (int32_t)(scaled + 0.5f);
        }
        for (size_t k = 0; k < n; k++) out[start + k] = levels[table[index[k]]];
    }
}
