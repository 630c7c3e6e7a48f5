#!/usr/bin/python3
"""The D-Bus side of the media plugin's end-to-end tests, run with Debian's
python3 (python3-dbus, python3-gi) on the bus DBUS_SESSION_BUS_ADDRESS names.

  mpris_peer.py wait-name NAME [--gone]       until NAME has (or has no) owner; waits on NameOwnerChanged
  mpris_peer.py wait-prop NAME PROP VALUE     until the player's PROP is VALUE; waits on PropertiesChanged
  mpris_peer.py get NAME PROP                 prints the player's PROP as JSON
  mpris_peer.py player NAME                   a stand-in MPRIS player: owns NAME, says "ready", then reads
                                              JSON lines on stdin: {"PlaybackStatus": ..., "Metadata": {...}}
                                              (a value {"bytes": N} is N bytes as 'ay'; {"invalid-utf8": true} is
                                              a title of bytes that are not UTF-8, sent as 'ay' since D-Bus
                                              refuses them in a string); each line is set and signalled,
                                              then "ok" is printed. Method calls are printed as "call MEMBER ARGS".
Every wait ends with exit status 3 after --timeout seconds (default 20).
"""
import json
import sys

import dbus
import dbus.service
import dbus.mainloop.glib
from gi.repository import GLib

PLAYER = "org.mpris.MediaPlayer2.Player"
PATH = "/org/mpris/MediaPlayer2"

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)


def plain(value):
    if isinstance(value, (dbus.String, dbus.ObjectPath)):
        return str(value)
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (dbus.Int16, dbus.Int32, dbus.Int64, dbus.UInt16, dbus.UInt32, dbus.UInt64, dbus.Byte)):
        return int(value)
    if isinstance(value, dbus.Double):
        return float(value)
    if isinstance(value, dbus.Dictionary):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (dbus.Array, dbus.Struct)):
        return [plain(v) for v in value]
    return value


def timeout_from(args):
    if "--timeout" in args:
        return float(args[args.index("--timeout") + 1])
    return 20.0


def run_until(done, seconds):
    loop = GLib.MainLoop()
    result = {"ok": False}

    def check(*_):
        if done():
            result["ok"] = True
            loop.quit()
        return False

    def expire():
        loop.quit()
        return False

    check.poke = lambda *a: GLib.idle_add(check)
    GLib.timeout_add(int(seconds * 1000), expire)
    GLib.idle_add(check)
    return loop, check, result


def wait_name(bus, name, gone, seconds):
    proxy = bus.get_object("org.freedesktop.DBus", "/org/freedesktop/DBus")
    has = lambda: bool(proxy.NameHasOwner(name, dbus_interface="org.freedesktop.DBus")) != gone
    loop, check, result = run_until(has, seconds)
    bus.add_signal_receiver(check.poke, "NameOwnerChanged", "org.freedesktop.DBus", arg0=name)
    loop.run()
    return result["ok"]


def wait_prop(bus, name, prop, value, seconds):
    def current():
        try:
            obj = bus.get_object(name, PATH)
            return str(obj.Get(PLAYER, prop, dbus_interface="org.freedesktop.DBus.Properties")) == value
        except dbus.DBusException:
            return False
    loop, check, result = run_until(current, seconds)
    bus.add_signal_receiver(check.poke, "PropertiesChanged", "org.freedesktop.DBus.Properties", path=PATH)
    bus.add_signal_receiver(check.poke, "NameOwnerChanged", "org.freedesktop.DBus", arg0=name)
    loop.run()
    return result["ok"]


def wire(value):
    """A JSON value of a test line as the D-Bus value the stand-in sends."""
    if isinstance(value, dict) and "bytes" in value:
        return dbus.ByteArray(b"\xff" * value["bytes"])
    if isinstance(value, dict) and value.get("invalid-utf8"):
        return dbus.ByteArray(b"caf\xe9 \xff\xfe title")
    if isinstance(value, dict):
        return dbus.Dictionary({k: wire(v) for k, v in value.items()}, signature="sv")
    if isinstance(value, list):
        return dbus.Array([wire(v) for v in value], signature="s" if all(isinstance(v, str) for v in value) else "v")
    if isinstance(value, bool):
        return dbus.Boolean(value)
    if isinstance(value, int):
        return dbus.Int64(value)
    return value


class StandIn(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, PATH)
        self.props = {"PlaybackStatus": "Stopped", "Metadata": dbus.Dictionary({}, signature="sv"),
                      "CanPlay": True, "CanPause": True, "CanSeek": True}

    @dbus.service.method("org.freedesktop.DBus.Properties", in_signature="ss", out_signature="v")
    def Get(self, interface, prop):
        return self.props[prop]

    @dbus.service.method("org.freedesktop.DBus.Properties", in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return self.props if interface == PLAYER else {}

    @dbus.service.signal("org.freedesktop.DBus.Properties", signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass

    def _called(self, member, *args):
        print("call", member, *[str(a) for a in args], flush=True)

    @dbus.service.method(PLAYER)
    def PlayPause(self):
        self._called("PlayPause")
        self.update({"PlaybackStatus": "Paused" if self.props["PlaybackStatus"] == "Playing" else "Playing"})

    @dbus.service.method(PLAYER)
    def Next(self):
        self._called("Next")

    @dbus.service.method(PLAYER)
    def Previous(self):
        self._called("Previous")

    @dbus.service.method(PLAYER)
    def Stop(self):
        self._called("Stop")
        self.update({"PlaybackStatus": "Stopped"})

    @dbus.service.method(PLAYER, in_signature="x")
    def Seek(self, offset):
        self._called("Seek", int(offset))

    def update(self, changes):
        values = {k: wire(v) for k, v in changes.items()}
        self.props.update(values)
        self.PropertiesChanged(PLAYER, dbus.Dictionary(values, signature="sv"), dbus.Array([], signature="s"))


def player(bus, name):
    standin = StandIn(bus)
    _ = dbus.service.BusName(name, bus)
    print("ready", flush=True)
    loop = GLib.MainLoop()

    def line(source, _condition):
        text = sys.stdin.readline()
        if not text:
            loop.quit()
            return False
        standin.update(json.loads(text))
        print("ok", flush=True)
        return True

    GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, line)
    loop.run()


def main(args):
    bus = dbus.SessionBus()
    command = args[0]
    if command == "wait-name":
        return 0 if wait_name(bus, args[1], "--gone" in args, timeout_from(args)) else 3
    if command == "wait-prop":
        return 0 if wait_prop(bus, args[1], args[2], args[3], timeout_from(args)) else 3
    if command == "get":
        obj = bus.get_object(args[1], PATH)
        print(json.dumps(plain(obj.Get(PLAYER, args[2], dbus_interface="org.freedesktop.DBus.Properties"))))
        return 0
    if command == "player":
        player(bus, args[1])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
