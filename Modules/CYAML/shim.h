// libyaml for Swift. Only the event parser is used; DeckProfiles imports this
// module with `internal import`, so no libyaml type appears in its API.
#ifndef DECK_CYAML_SHIM_H
#define DECK_CYAML_SHIM_H

#include <yaml.h>

#endif
