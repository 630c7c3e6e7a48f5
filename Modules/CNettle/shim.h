// SHA-1 and base64 for the WebSocket handshake's accept key; SHA-256 for face images.
// Imported with `internal import`: no C type of it appears in a module's API.
#ifndef DECK_CNETTLE_SHIM_H
#define DECK_CNETTLE_SHIM_H

#include <nettle/sha1.h>
#include <nettle/sha2.h>
#include <nettle/base64.h>

#endif
