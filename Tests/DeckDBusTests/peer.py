#!/usr/bin/python3
"""The peer of Tests/DeckDBusTests, on the bus DBUS_SESSION_BUS_ADDRESS
names. Run with Debian's python3 (python3-dbus, python3-gi).

Owns org.deck.TestPeer, prints "ready" once it does, and answers calls to
/org/deck/TestPeer on interface org.deck.TestPeer:
  Echo(...)         replies with its arguments, with their signature
  Fail()            replies with the error org.deck.TestPeer.Error.Refused
  Stall()           never replies
  Emit(s member, ...)  emits the signal `member` with the remaining arguments, then replies
It works on raw messages (a message filter), so Echo returns exactly the
types it was sent, whatever they are.
"""
import sys

import dbus
import dbus.lowlevel
import dbus.mainloop.glib
from gi.repository import GLib

NAME = "org.deck.TestPeer"
PATH = "/org/deck/TestPeer"
INTERFACE = "org.deck.TestPeer"


def handle(bus, message):
    if not isinstance(message, dbus.lowlevel.MethodCallMessage) or message.get_interface() != INTERFACE:
        return dbus.lowlevel.HANDLER_RESULT_NOT_YET_HANDLED
    member = message.get_member()
    arguments = message.get_args_list()
    signature = message.get_signature()
    if member == "Echo":
        reply = dbus.lowlevel.MethodReturnMessage(message)
        if arguments:
            reply.append(*arguments, signature=signature)
        bus.send_message(reply)
    elif member == "Fail":
        bus.send_message(dbus.lowlevel.ErrorMessage(message, "org.deck.TestPeer.Error.Refused",
                                                    "the peer refuses Fail, as asked"))
    elif member == "Emit":
        signal = dbus.lowlevel.SignalMessage(PATH, INTERFACE, str(arguments[0]))
        if len(arguments) > 1:
            signal.append(*arguments[1:], signature=signature[1:])
        bus.send_message(signal)
        bus.send_message(dbus.lowlevel.MethodReturnMessage(message))
    elif member != "Stall":
        bus.send_message(dbus.lowlevel.ErrorMessage(message, "org.freedesktop.DBus.Error.UnknownMethod", member))
    return dbus.lowlevel.HANDLER_RESULT_HANDLED


def main():
    loop = dbus.mainloop.glib.DBusGMainLoop()
    bus = dbus.bus.BusConnection(dbus.bus.BusConnection.TYPE_SESSION, mainloop=loop)
    bus.add_message_filter(handle)
    if bus.request_name(NAME, dbus.bus.NAME_FLAG_DO_NOT_QUEUE) != dbus.bus.REQUEST_NAME_REPLY_PRIMARY_OWNER:
        sys.exit(f"peer.py: {NAME} is owned already")
    print("ready", flush=True)
    GLib.MainLoop().run()


if __name__ == "__main__":
    main()
