// xkbcommon (libxkbcommon-dev): keysym names and the keysym <-> Unicode tables of the keys plugin.
// Imported with `internal import`: no C type of it appears in a module's API.
#ifndef DECK_CXKBCOMMON_SHIM_H
#define DECK_CXKBCOMMON_SHIM_H

#include <xkbcommon/xkbcommon.h>

#endif
