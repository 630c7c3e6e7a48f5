// WebSocket framing made for foreign event loops (RFC 6455); DeckWeb runs it on DeckTransport's loop.
// Imported with `internal import`: no C type of it appears in a module's API.
#ifndef DECK_CWSLAY_SHIM_H
#define DECK_CWSLAY_SHIM_H

#include <wslay/wslay.h>

#endif
