/// Small plugins for the supervision tests, each showing one behaviour.
enum TestPlugins {
    /// Says ready; logs every `buttons` and `press` it gets and sets the
    /// pressed button's title to `COMMAND PHASE`; exits on shutdown.
    static func echo(_ id: String = "echo", readyDelay: Double = 0) -> TestPlugin {
        .python(id, """
            import json, sys, time
            def out(message):
                print(json.dumps(message), flush=True)
            for line in sys.stdin:
                event = json.loads(line)
                kind = event.get("event")
                if kind == "hello":
                    time.sleep(\(readyDelay))
                    out({"type": "ready"})
                elif kind == "buttons":
                    out({"type": "log", "message": "buttons %d" % len(event["buttons"])})
                elif kind == "press":
                    b = event["button"]
                    out({"type": "log", "message": "press %s %d %d %s %s" % (event["phase"], b["page"], b["index"], event["command"], json.dumps(event["settings"], sort_keys=True))})
                    out({"type": "setTitle", "page": b["page"], "index": b["index"], "title": "%s %s" % (event["command"], event["phase"])})
                elif kind == "shutdown":
                    sys.exit(0)
            """)
    }

    /// Says ready, then exits with status 3 on the first press.
    static func crashOnPress(_ id: String = "crashy") -> TestPlugin {
        .sh(id, """
            echo '{"type":"ready"}'
            while read -r line; do
              case "$line" in *'"press"'*) exit 3 ;; esac
            done
            """)
    }

    /// Never says ready (and never reads).
    static func neverReady(_ id: String = "mute") -> TestPlugin {
        .sh(id, "exec sleep 100")
    }

    /// Says ready and never reads its input again.
    static func notReading(_ id: String = "deaf") -> TestPlugin {
        .sh(id, """
            echo '{"type":"ready"}'
            exec sleep 100
            """)
    }

    /// Says ready, then prints garbage of every kind, then one valid title.
    static func garbage(_ id: String = "noisy") -> TestPlugin {
        .sh(id, """
            read -r hello
            echo '{"type":"ready"}'
            read -r buttons
            yes 'not json at all' | head -n 5000
            head -c 600000 /dev/zero | tr '\\0' x; echo
            printf '%s\\n' '{"type":"fly"}' '[1,2]' '{"type":"setTitle","page":0,"index":7,"title":"not mine"}' '{"type":' ''
            echo 'on stderr' >&2
            echo '{"type":"setTitle","page":0,"index":0,"title":"still here"}'
            exec sleep 100
            """)
    }

    /// Ignores shutdown and SIGTERM, and has a child in its group that does too.
    static func stubborn(_ id: String = "stubborn") -> TestPlugin {
        .sh(id, """
            trap '' TERM
            sleep 100 &
            echo "{\\"type\\":\\"log\\",\\"message\\":\\"child $!\\"}"
            echo '{"type":"ready"}'
            while true; do read -r line || sleep 100; done
            """)
    }

    /// Starts a child in its group, says ready, and exits on a press leaving the child behind.
    static func leavesChild(_ id: String = "leaver") -> TestPlugin {
        .sh(id, """
            sleep 100 &
            echo "{\\"type\\":\\"log\\",\\"message\\":\\"child $!\\"}"
            echo '{"type":"ready"}'
            while read -r line; do
              case "$line" in *'"press"'*) exit 0 ;; esac
            done
            """)
    }
}
