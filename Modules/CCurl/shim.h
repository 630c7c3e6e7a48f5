// libcurl (libcurl4-openssl-dev): the media plugin's http(s) album art (plugins/media, docs/plugins.md "media").
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: the typed wrappers below
// pass one argument of the type each option takes. Imported with `internal import`: no C type leaks.
#ifndef DECK_CCURL_SHIM_H
#define DECK_CCURL_SHIM_H

#include <curl/curl.h>

/// The body's bytes arrive here (CURLOPT_WRITEFUNCTION's type).
typedef size_t (*deck_curl_write_callback)(char *data, size_t size, size_t count, void *context);

/// An option that takes a long (flags, counts, milliseconds).
static inline CURLcode deck_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// An option that takes a string (copied by libcurl) or a pointer kept by the caller.
static inline CURLcode deck_curl_set_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// An option that takes a curl_off_t (sizes).
static inline CURLcode deck_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// CURLOPT_WRITEFUNCTION.
static inline CURLcode deck_curl_set_write(CURL *handle, deck_curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

/// An answer of curl_easy_getinfo that is a long (the response code, the redirect count).
static inline CURLcode deck_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// An answer of curl_easy_getinfo that is a string owned by the handle (the content type), NULL when none.
static inline CURLcode deck_curl_get_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}

/// An answer of curl_easy_getinfo that is a pointer (CURLINFO_PRIVATE).
static inline CURLcode deck_curl_get_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

#endif
