// HDR to SDR: a picture coded with PQ (SMPTE ST 2084) or HLG (ARIB
// STD-B67), in BT.2020 or BT.709 primaries, brought to sRGB as a terminal
// shows it. Light is taken relative to SDR's reference white (203 cd/m²,
// ITU-R BT.2408); what is within 75% of it is kept as it is, and brighter
// light is rolled off smoothly toward white, channel by channel, so that an
// SDR picture coded as HDR comes back as it was and highlights do not clip.
#include "CImageShim.h"
#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#define REFERENCE_WHITE 203.0
#define KNEE 0.75

static float pq[65536];   // PQ code value (16-bit) to relative light
static float hlg[65536];  // HLG code value to scene light (0..1)
static uint8_t encode[4097];  // relative light 0..1 (in 4096ths) to sRGB levels
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void tables(void) {
    const double m1 = 0.1593017578125, m2 = 78.84375, c1 = 0.8359375, c2 = 18.8515625, c3 = 18.6875;
    const double a = 0.17883277, b = 0.28466892, c = 0.55991073;
    for (int i = 0; i < 65536; i++) {
        double e = i / 65535.0;
        double n = pow(e, 1 / m2);
        double nits = 10000 * pow(fmax(n - c1, 0) / (c2 - c3 * n), 1 / m1);
        pq[i] = (float)(nits / REFERENCE_WHITE);
        hlg[i] = (float)(e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12);
    }
    for (int i = 0; i <= 4096; i++) {
        double l = i / 4096.0;
        double s = l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055;
        encode[i] = (uint8_t)lround(fmin(fmax(s, 0), 1) * 255);
    }
}

/// Light above the knee rolled off toward 1, with no kink at the knee.
static float rolled(float x) {
    if (x <= KNEE) return x < 0 ? 0 : x;
    return KNEE + (1 - KNEE) * (1 - expf(-(x - KNEE) / (1 - KNEE)));
}

void cimg_hdr_to_srgb8(const uint16_t *in, uint8_t *out, size_t count, int transfer, int bt2020) {
    pthread_once(&once, tables);
    for (size_t i = 0; i < count; i++) {
        const uint16_t *p = in + 4 * i;
        float r, g, b;
        if (transfer == CIMG_TRANSFER_HLG) {
            r = hlg[p[0]], g = hlg[p[1]], b = hlg[p[2]];
            // The OOTF for a 1000 cd/m² display: system gamma 1.2.
            float y = bt2020 ? 0.2627f * r + 0.6780f * g + 0.0593f * b : 0.2126f * r + 0.7152f * g + 0.0722f * b;
            float scale = (float)(1000.0 / REFERENCE_WHITE) * (y > 0 ? powf(y, 0.2f) : 0);
            r *= scale, g *= scale, b *= scale;
        } else {
            r = pq[p[0]], g = pq[p[1]], b = pq[p[2]];
        }
        if (bt2020) {
            float r7 = 1.6605f * r - 0.5876f * g - 0.0728f * b;
            float g7 = -0.1246f * r + 1.1329f * g - 0.0083f * b;
            float b7 = -0.0182f * r - 0.1006f * g + 1.1187f * b;
            r = r7, g = g7, b = b7;
        }
        uint8_t *o = out + 4 * i;
        o[0] = encode[(int)lroundf(rolled(r) * 4096)];
        o[1] = encode[(int)lroundf(rolled(g) * 4096)];
        o[2] = encode[(int)lroundf(rolled(b) * 4096)];
        o[3] = (uint8_t)(p[3] >> 8);
    }
}
