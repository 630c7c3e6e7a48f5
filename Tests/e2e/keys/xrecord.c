/* A real X client for the keys plugin's end-to-end tests: maps a window, takes
 * the input focus, and prints one JSON line per KeyPress/KeyRelease with the
 * keycode, the keysym and text xkbcommon gives for it under the keymap of the
 * server (re-read whenever the keymap changes) and the event's modifier state.
 * Reading "keymap" on stdin prints the keycodes the server has down now.
 * Prints {"ready":true} once the window has the focus.
 * Build: cc xrecord.c $(pkg-config --cflags --libs xcb xcb-xkb xkbcommon xkbcommon-x11) */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xcb/xcb.h>
#include <xcb/xkb.h>
#include <xkbcommon/xkbcommon.h>
#include <xkbcommon/xkbcommon-x11.h>

static struct xkb_context *context;
static struct xkb_keymap *keymap;
static struct xkb_state *state;
static int32_t device;

static void load_keymap(xcb_connection_t *c) {
    if (state) xkb_state_unref(state);
    if (keymap) xkb_keymap_unref(keymap);
    keymap = xkb_x11_keymap_new_from_device(context, c, device, XKB_KEYMAP_COMPILE_NO_FLAGS);
    state = keymap ? xkb_x11_state_new_from_device(keymap, c, device) : NULL;
}

static void print_json_string(const char *s) {
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') printf("\\%c", *p);
        else if (*p < 0x20) printf("\\u%04x", *p);
        else putchar(*p);
    }
    putchar('"');
}

int main(void) {
    xcb_connection_t *c = xcb_connect(NULL, NULL);
    if (xcb_connection_has_error(c)) { fprintf(stderr, "xrecord: cannot connect\n"); return 1; }
    uint16_t major, minor; uint8_t base_event, base_error;
    if (!xkb_x11_setup_xkb_extension(c, XKB_X11_MIN_MAJOR_XKB_VERSION, XKB_X11_MIN_MINOR_XKB_VERSION,
                                     XKB_X11_SETUP_XKB_EXTENSION_NO_FLAGS, &major, &minor, &base_event, &base_error)) {
        fprintf(stderr, "xrecord: no XKB\n"); return 1;
    }
    context = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
    device = xkb_x11_get_core_keyboard_device_id(c);
    uint16_t events = XCB_XKB_EVENT_TYPE_NEW_KEYBOARD_NOTIFY | XCB_XKB_EVENT_TYPE_MAP_NOTIFY;
    uint16_t map_parts = XCB_XKB_MAP_PART_KEY_TYPES | XCB_XKB_MAP_PART_KEY_SYMS | XCB_XKB_MAP_PART_MODIFIER_MAP |
                         XCB_XKB_MAP_PART_EXPLICIT_COMPONENTS | XCB_XKB_MAP_PART_KEY_ACTIONS |
                         XCB_XKB_MAP_PART_VIRTUAL_MODS | XCB_XKB_MAP_PART_VIRTUAL_MOD_MAP;
    xcb_xkb_select_events(c, device, events, 0, events, map_parts, map_parts, NULL);
    load_keymap(c);

    xcb_screen_t *screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
    xcb_window_t window = xcb_generate_id(c);
    uint32_t mask = XCB_EVENT_MASK_KEY_PRESS | XCB_EVENT_MASK_KEY_RELEASE | XCB_EVENT_MASK_FOCUS_CHANGE |
                    XCB_EVENT_MASK_EXPOSURE;
    xcb_create_window(c, XCB_COPY_FROM_PARENT, window, screen->root, 0, 0, 200, 100, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, XCB_CW_EVENT_MASK, &mask);
    xcb_map_window(c, window);
    xcb_flush(c);

    int ready = 0;
    struct pollfd fds[2] = {{xcb_get_file_descriptor(c), POLLIN, 0}, {0, POLLIN, 0}};
    char line[256];
    for (;;) {
        xcb_generic_event_t *event;
        while ((event = xcb_poll_for_event(c))) {
            uint8_t type = event->response_type & 0x7f;
            if (type == XCB_EXPOSE && !ready) {
                xcb_set_input_focus(c, XCB_INPUT_FOCUS_POINTER_ROOT, window, XCB_CURRENT_TIME);
                xcb_flush(c);
            } else if (type == XCB_FOCUS_IN && !ready) {
                ready = 1;
                printf("{\"ready\":true}\n");
                fflush(stdout);
            } else if (type == XCB_KEY_PRESS || type == XCB_KEY_RELEASE) {
                xcb_key_press_event_t *key = (xcb_key_press_event_t *)event;
                char name[64] = "", text[64] = "";
                xkb_keysym_t sym = 0;
                if (state) {
                    xkb_state_update_mask(state, key->state & 0xff, 0, 0, 0, 0, (key->state >> 13) & 3);
                    sym = xkb_state_key_get_one_sym(state, key->detail);
                    xkb_keysym_get_name(sym, name, sizeof name);
                    xkb_state_key_get_utf8(state, key->detail, text, sizeof text);
                }
                printf("{\"type\":\"%s\",\"code\":%u,\"keysym\":%u,\"name\":", type == XCB_KEY_PRESS ? "press" : "release",
                       key->detail, sym);
                print_json_string(name);
                printf(",\"state\":%u,\"text\":", key->state);
                print_json_string(text);
                printf("}\n");
                fflush(stdout);
            } else if (type == base_event) {
                load_keymap(c);
                if (getenv("XRECORD_DEBUG")) fprintf(stderr, "xrecord: keymap reloaded (xkb event %u)\n", ((xcb_xkb_map_notify_event_t *)event)->xkbType);
            }
            free(event);
        }
        if (xcb_connection_has_error(c)) return 0;
        if (poll(fds, 2, -1) < 0) continue;
        // A closed stdin is POLLHUP without POLLIN: without it the loop would spin once its reader is gone.
        if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) {
            if (!fgets(line, sizeof line, stdin)) return 0;
            if (strncmp(line, "keymap", 6) == 0) {
                xcb_query_keymap_reply_t *reply = xcb_query_keymap_reply(c, xcb_query_keymap(c), NULL);
                printf("{\"down\":[");
                int first = 1;
                for (int i = 0; reply && i < 256; i++)
                    if (reply->keys[i / 8] & (1 << (i % 8))) { printf(first ? "%d" : ",%d", i); first = 0; }
                printf("]}\n");
                fflush(stdout);
                free(reply);
            }
        }
    }
}
