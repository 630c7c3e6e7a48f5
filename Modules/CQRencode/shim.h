// QR codes for deckctl pair's pairing link.
// Imported with `internal import`: no C type of it appears in a module's API.
#ifndef DECK_CQRENCODE_SHIM_H
#define DECK_CQRENCODE_SHIM_H

#include <qrencode.h>

#endif
