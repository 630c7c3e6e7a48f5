// the HTTP/1.1 request head parser (nodejs/http-parser); DeckWeb parses every request head with it.
// Imported with `internal import`: no C type of it appears in a module's API.
#ifndef DECK_CHTTPPARSER_SHIM_H
#define DECK_CHTTPPARSER_SHIM_H

#include <http_parser.h>

#endif
