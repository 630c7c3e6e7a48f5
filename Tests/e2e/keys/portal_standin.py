#!/usr/bin/python3
"""A stand-in for xdg-desktop-portal's org.freedesktop.portal.RemoteDesktop
(version 2) on the bus DBUS_SESSION_BUS_ADDRESS names, for the keys plugin's
portal tests. Run with Debian's python3 (python3-dbus, python3-gi).

  portal_standin.py RECORD [--deny | --cancel]

Owns org.freedesktop.portal.Desktop, prints "ready" once it does, and
appends one JSON line per event to RECORD:
  {"call": "CreateSession" | "SelectDevices" | "Start" | "Close", "options": {...}, "sender": ":1.5"}
  {"consent": "asked" | "restored" | "denied" | "cancelled"}
  {"key": KEYSYM, "state": 0 | 1}
  {"problem": "..."}           a call that breaks the documented protocol
It checks what the portal documents (the Response arrives on the request
path made from the sender and handle_token; SelectDevices has types 1 and
persist_mode 2) and records a problem otherwise. A restore_token it issued
restores the session without asking. SIGUSR1 closes every session
(Session.Closed, as when the user stops sharing).
"""
import json
import signal
import sys
import uuid

import dbus
import dbus.service
import dbus.mainloop.glib
from gi.repository import GLib

NAME = "org.freedesktop.portal.Desktop"
PATH = "/org/freedesktop/portal/desktop"
REMOTE = "org.freedesktop.portal.RemoteDesktop"
REQUEST = "org.freedesktop.portal.Request"
SESSION = "org.freedesktop.portal.Session"

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
record_path = sys.argv[1]
mode = "deny" if "--deny" in sys.argv else "cancel" if "--cancel" in sys.argv else "grant"


def plain(value):
    if isinstance(value, (dbus.String, dbus.ObjectPath)):
        return str(value)
    if isinstance(value, (dbus.Int32, dbus.UInt32, dbus.Int64, dbus.UInt64)):
        return int(value)
    if isinstance(value, dbus.Dictionary):
        return {str(k): plain(v) for k, v in value.items()}
    return value


def record(**entry):
    with open(record_path, "a") as out:
        out.write(json.dumps(entry) + "\n")


class Request(dbus.service.Object):
    @dbus.service.signal(REQUEST, signature="ua{sv}")
    def Response(self, code, results):
        pass


class Session(dbus.service.Object):
    def __init__(self, bus, path, owner):
        super().__init__(bus, path)
        self.path, self.owner, self.started, self.devices = path, owner, False, 0

    @dbus.service.method(SESSION, in_signature="", out_signature="")
    def Close(self):
        record(call="Close", options={}, sender=self.owner)
        sessions.pop(self.path, None)
        self.remove_from_connection()

    @dbus.service.signal(SESSION, signature="a{sv}")
    def Closed(self, details):
        pass


sessions = {}
tokens = set()


def request_path(sender, options):
    token = str(options.get("handle_token", ""))
    if not token:
        record(problem="no handle_token")
    return f"{PATH}/request/{sender[1:].replace('.', '_')}/{token}"


def answer(path, code, results):
    request = Request(bus, path)
    # After the method's reply, as a real portal does (the caller subscribed before calling).
    GLib.idle_add(lambda: (request.Response(dbus.UInt32(code), dbus.Dictionary(results, signature="sv")),
                           request.remove_from_connection(), False)[-1])
    return dbus.ObjectPath(path)


class Portal(dbus.service.Object):
    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="ss", out_signature="v")
    def Get(self, interface, prop):
        return self.GetAll(interface)[prop]

    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        if interface != REMOTE:
            raise dbus.exceptions.DBusException("no such interface", name="org.freedesktop.DBus.Error.UnknownInterface")
        return {"AvailableDeviceTypes": dbus.UInt32(7, variant_level=1), "version": dbus.UInt32(2, variant_level=1)}

    @dbus.service.method(REMOTE, in_signature="a{sv}", out_signature="o", sender_keyword="sender")
    def CreateSession(self, options, sender=None):
        record(call="CreateSession", options=plain(options), sender=sender)
        handle = f"{PATH}/session/{sender[1:].replace('.', '_')}/{options.get('session_handle_token', 'x')}"
        sessions[handle] = Session(bus, handle, sender)
        return answer(request_path(sender, options), 0, {"session_handle": dbus.String(handle)})

    @dbus.service.method(REMOTE, in_signature="oa{sv}", out_signature="o", sender_keyword="sender")
    def SelectDevices(self, session, options, sender=None):
        record(call="SelectDevices", options=plain(options), sender=sender)
        if int(options.get("types", 0)) != 1:
            record(problem=f"types is {plain(options.get('types'))}, not 1 (keyboard)")
        if int(options.get("persist_mode", 0)) != 2:
            record(problem=f"persist_mode is {plain(options.get('persist_mode'))}, not 2")
        state = sessions.get(str(session))
        if state is None or state.owner != sender:
            record(problem=f"SelectDevices on unknown session {session}")
            return answer(request_path(sender, options), 2, {})
        state.restore = str(options.get("restore_token", ""))
        return answer(request_path(sender, options), 0, {})

    @dbus.service.method(REMOTE, in_signature="osa{sv}", out_signature="o", sender_keyword="sender")
    def Start(self, session, parent, options, sender=None):
        record(call="Start", options=plain(options), sender=sender)
        path = request_path(sender, options)
        state = sessions.get(str(session))
        if state is None or state.owner != sender:
            record(problem=f"Start on unknown session {session}")
            return answer(path, 2, {})
        if state.restore and state.restore in tokens:
            record(consent="restored")
            tokens.discard(state.restore)  # a token is good once; the answer carries the next
        else:
            record(consent="asked")
            if mode != "grant":
                record(consent="denied" if mode == "deny" else "cancelled")
                return answer(path, 1 if mode == "deny" else 2, {})
        token = str(uuid.uuid4())
        tokens.add(token)
        state.started, state.devices = True, 1
        return answer(path, 0, {"devices": dbus.UInt32(1), "restore_token": dbus.String(token)})

    @dbus.service.method(REMOTE, in_signature="oa{sv}iu", out_signature="", sender_keyword="sender")
    def NotifyKeyboardKeysym(self, session, options, keysym, state, sender=None):
        known = sessions.get(str(session))
        if known is None or not known.started or known.owner != sender:
            raise dbus.exceptions.DBusException("session not started", name="org.freedesktop.DBus.Error.AccessDenied")
        record(key=int(keysym), state=int(state))


def close_all():
    for state in list(sessions.values()):
        state.Closed(dbus.Dictionary({}, signature="sv"))
        state.remove_from_connection()
    sessions.clear()
    return False


bus = dbus.SessionBus()
portal = Portal(bus, PATH)
owned = dbus.service.BusName(NAME, bus, do_not_queue=True)
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1, lambda: (close_all(), True)[-1])
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, lambda: (loop.quit(), False)[-1])
print("ready", flush=True)
loop = GLib.MainLoop()
loop.run()
