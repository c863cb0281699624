/* The server's secrets (secret.h): the system's randomness and the tokens' hashes. */
#include <errno.h>
#include <jansson.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "server/secret.h"

static int (*random_source)(void *buf, size_t n);

void gv_set_random_source(int (*fill)(void *buf, size_t n))
{
    random_source = fill;
}

int gv_random_bytes(void *buf, size_t n)
{
    if (random_source)
        return random_source(buf, n);
    unsigned char *p = buf;
    size_t got = 0;
    while (got < n) {
        ssize_t k = getrandom(p + got, n - got, 0);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        got += (size_t)k;
    }
    return 0;
}

void gv_sha256(const void *data, size_t n, unsigned char out[GV_SHA256])
{
    unsigned int len = 0;
    if (!EVP_Digest(data, n, out, &len, EVP_sha256(), NULL) || len != GV_SHA256)
        abort();   /* only when libcrypto cannot run at all */
}

void gv_token_hash(const char *token, unsigned char out[GV_SHA256])
{
    gv_sha256(token, strlen(token), out);
}

void gv_hex(const unsigned char *b, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[b[i] >> 4];
        out[2 * i + 1] = digits[b[i] & 15];
    }
    out[2 * n] = 0;
}

static int hexdigit(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int gv_unhex_sha256(const char *text, unsigned char out[GV_SHA256])
{
    if (!text || strlen(text) != 2 * GV_SHA256)
        return -1;
    for (int i = 0; i < GV_SHA256; i++) {
        int hi = hexdigit((unsigned char)text[2 * i]), lo = hexdigit((unsigned char)text[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i] = (unsigned char)(hi << 4 | lo);
    }
    return 0;
}

int gv_equal_ct(const unsigned char *a, const unsigned char *b, size_t n)
{
    unsigned diff = 0;
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned)(a[i] ^ b[i]);
    return diff == 0;
}

char *gv_config_hash_tokens(const char *config)
{
    json_t *cfg = config ? json_loads(config, 0, NULL) : NULL;
    int changed = 0;
    size_t i;
    json_t *seat;
    json_array_foreach(json_object_get(cfg, "seats"), i, seat) {
        json_t *tk = json_object_get(seat, "token");
        if (!tk)
            continue;
        const char *t = json_string_value(tk);
        if (t && *t) {
            unsigned char h[GV_SHA256];
            char hex[GV_SHA256_HEX];
            gv_token_hash(t, h);
            gv_hex(h, sizeof h, hex);
            json_object_set_new(seat, "token_sha256", json_string(hex));
        }
        json_object_del(seat, "token");
        changed = 1;
    }
    char *out = changed ? json_dumps(cfg, JSON_COMPACT) : NULL;
    json_decref(cfg);
    return out;
}
