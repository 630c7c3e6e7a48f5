// SHA-1 and SHA-256, for DeckDigest only (the WebSocket accept key, face image hashes, obs-websocket authentication).
// Imported with `internal import`: no C type of it appears in a module's API.
#ifndef DECK_CNETTLE_SHIM_H
#define DECK_CNETTLE_SHIM_H

#include <nettle/sha1.h>
#include <nettle/sha2.h>

#endif
