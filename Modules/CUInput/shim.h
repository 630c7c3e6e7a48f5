// Linux input events and uinput (kernel headers): the keys plugin's uinput back end.
// Header only. ioctl is variadic, which Swift cannot call: the two helpers do the
// set-up and tear-down of the virtual keyboard in C.
// Imported with `internal import`: no C type of it appears in a module's API.
#ifndef DECK_CUINPUT_SHIM_H
#define DECK_CUINPUT_SHIM_H

#include <linux/input.h>
#include <linux/uinput.h>
#include <string.h>
#include <sys/ioctl.h>

/// Makes `fd` (an open /dev/uinput) a virtual keyboard with every key code; 0 or -1 (errno set).
static inline int deck_uinput_create(int fd, const char *name) {
    if (ioctl(fd, UI_SET_EVBIT, EV_KEY) < 0 || ioctl(fd, UI_SET_EVBIT, EV_SYN) < 0) return -1;
    for (int code = 1; code < KEY_MAX; code++) {
        if (ioctl(fd, UI_SET_KEYBIT, code) < 0) return -1;
    }
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_VIRTUAL;
    setup.id.vendor = 0x1d6b;  // Linux Foundation: a virtual device
    setup.id.product = 0xdec4;
    strncpy(setup.name, name, UINPUT_MAX_NAME_SIZE - 1);
    if (ioctl(fd, UI_DEV_SETUP, &setup) < 0) return -1;
    return ioctl(fd, UI_DEV_CREATE);
}

/// Removes the virtual keyboard: the kernel lifts every key it still has down.
static inline int deck_uinput_destroy(int fd) {
    return ioctl(fd, UI_DEV_DESTROY);
}

#endif
