// Xlib and the XTest extension (libx11-dev, libxtst-dev): the keys plugin's X11 back end.
// Imported with `internal import`: no C type of it appears in a module's API.
#ifndef DECK_CXTEST_SHIM_H
#define DECK_CXTEST_SHIM_H

#include <X11/Xlib.h>
#include <X11/XKBlib.h>
#include <X11/extensions/XTest.h>

#endif
