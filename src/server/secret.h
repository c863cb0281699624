/* The server's secrets: randomness from the system, and the seat tokens' stored form.
 *
 * A seat token (32 random hex digits, shown once when its game is created) is stored only
 * as its SHA-256, so that a copy of the database gives no seat away; a token presented is
 * hashed and compared with the stored hashes in constant time. SHA-256 is OpenSSL's
 * (libcrypto, which libwebsockets and libpq link already). Without the system's randomness
 * nothing secret is made: gv_random_bytes fails and the caller refuses. */
#ifndef GV_SECRET_H
#define GV_SECRET_H

#include <stddef.h>

enum { GV_SHA256 = 32, GV_SHA256_HEX = 2 * GV_SHA256 + 1 };

/* n bytes of the system's randomness (getrandom). 0, or -1 with errno when the source
 * fails: there is no fallback. */
int gv_random_bytes(void *buf, size_t n);
/* Tests: fill replaces getrandom as the source (it returns 0, or -1 on failure); NULL
 * puts getrandom back. */
void gv_set_random_source(int (*fill)(void *buf, size_t n));

void gv_sha256(const void *data, size_t n, unsigned char out[GV_SHA256]);
/* SHA-256 of the token's text. */
void gv_token_hash(const char *token, unsigned char out[GV_SHA256]);
void gv_hex(const unsigned char *b, size_t n, char *out);   /* 2n digits + NUL */
/* 64 hex digits to 32 bytes: 0, or -1 when text is not that. */
int gv_unhex_sha256(const char *text, unsigned char out[GV_SHA256]);
/* 1 when a and b (n bytes) are equal; the time does not depend on where they differ. */
int gv_equal_ct(const unsigned char *a, const unsigned char *b, size_t n);

/* A stored game config (the hub's JSON text) whose seats hold clear tokens ("token", as
 * versions before hashing wrote them), with each replaced by its hash ("token_sha256").
 * malloc'd; NULL when the config holds no clear token or is not readable JSON. */
char *gv_config_hash_tokens(const char *config);

#endif
