// zlib for Swift. deflateInit2/inflateInit2 are macros that Swift cannot
// call, so they are wrapped here as static inline functions.
#ifndef DECK_CZLIB_SHIM_H
#define DECK_CZLIB_SHIM_H

#include <zlib.h>

static inline int deck_deflateInit2(z_streamp stream, int level, int method, int windowBits, int memLevel, int strategy) {
    return deflateInit2(stream, level, method, windowBits, memLevel, strategy);
}

static inline int deck_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

#endif
