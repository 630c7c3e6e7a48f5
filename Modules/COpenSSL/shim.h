// OpenSSL (libssl, libcrypto) for Swift. Many of its calls are macros over
// SSL_CTX_ctrl/BIO_ctrl, which Swift cannot call: they are wrapped here as
// static inline functions, one line each, with no logic of their own.
#ifndef DECK_COPENSSL_SHIM_H
#define DECK_COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

static inline int deck_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_min_proto_version(ctx, version);
}

static inline int deck_SSL_CTX_set_max_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_max_proto_version(ctx, version);
}

static inline long deck_SSL_CTX_set_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_mode(ctx, mode);
}

static inline int deck_SSL_CTX_set1_groups_list(SSL_CTX *ctx, const char *list) {
    return (int)SSL_CTX_set1_groups_list(ctx, list);
}

static inline int deck_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

static inline size_t deck_BIO_pending(BIO *bio) {
    return (size_t)BIO_ctrl_pending(bio);
}

static inline long deck_BIO_get_mem_data(BIO *bio, char **data) {
    return BIO_get_mem_data(bio, data);
}

/// The TLS version numbers (macros in tls1.h) as constants Swift imports.
static const int deck_TLS1_2_VERSION = TLS1_2_VERSION;
static const int deck_TLS1_3_VERSION = TLS1_3_VERSION;

/// Option and mode bits (SSL_OP_BIT is a function-like macro Swift cannot import).
static const uint64_t deck_SSL_OP_NO_COMPRESSION = SSL_OP_NO_COMPRESSION;
static const uint64_t deck_SSL_OP_NO_RENEGOTIATION = SSL_OP_NO_RENEGOTIATION;
static const uint64_t deck_SSL_OP_CIPHER_SERVER_PREFERENCE = SSL_OP_CIPHER_SERVER_PREFERENCE;
static const uint64_t deck_SSL_OP_NO_TICKET = SSL_OP_NO_TICKET;
static const long deck_SSL_MODE_RELEASE_BUFFERS = SSL_MODE_RELEASE_BUFFERS;
static const long deck_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER = SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER;

#endif
