// libpulse (libpulse-dev), the PulseAudio client library, which PipeWire serves too through pipewire-pulse:
// the sound plugin's mute and volume. Imported with `internal import`: no C type of it appears in a module's API.
#ifndef DECK_CPULSE_SHIM_H
#define DECK_CPULSE_SHIM_H

#include <pulse/pulseaudio.h>

#endif
