/* The floor of the keys latency figure (make bench, "keys"): the same XTest
 * calls the keys plugin's X11 back end makes for a tap, with nothing on top.
 * Each line on stdin names a keysym ("a"); the key is pressed and released
 * with XTestFakeKeyEvent and the request flushed with XSync, as the plugin
 * does. Prints "ready" once the display is open, then nothing.
 * Build: cc xtest_floor.c -lX11 -lXtst */
#include <stdio.h>
#include <string.h>
#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>

int main(void) {
    Display *display = XOpenDisplay(NULL);
    if (!display) { fprintf(stderr, "xtest_floor: cannot open the display\n"); return 1; }
    int event, error, major, minor;
    if (!XTestQueryExtension(display, &event, &error, &major, &minor)) {
        fprintf(stderr, "xtest_floor: the display has no XTest\n");
        return 1;
    }
    printf("ready\n");
    fflush(stdout);
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        KeyCode code = XKeysymToKeycode(display, XStringToKeysym(line));
        if (!code) { fprintf(stderr, "xtest_floor: no key for %s\n", line); return 1; }
        XTestFakeKeyEvent(display, code, True, 0);
        XTestFakeKeyEvent(display, code, False, 0);
        XSync(display, False);
    }
    XCloseDisplay(display);
    return 0;
}
