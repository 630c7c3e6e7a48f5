// sd-bus, the D-Bus library of libsystemd (libsystemd-dev), for DeckDBus only (the plugins import DeckDBus).
// Imported with `internal import`: no C type of it appears in a module's API.
#ifndef DECK_CSDBUS_SHIM_H
#define DECK_CSDBUS_SHIM_H

#include <systemd/sd-bus.h>

#endif
