#!/usr/bin/env bash
# Instructions per edit of deckd, per thread, counted by callgrind: a release
# deckd serving deck-bench's desk profile, DEVICES devices making EDITS moves
# each (Support/profiling/edits.py) after a warm-up the count leaves out.
# Instructions, not seconds: the same binary and inputs give the same count
# however busy the machine is (docs/performance.md, "Reproducing and profiling").
#
# usage: Support/profiling/callgrind-edits.sh [DEVICES] [EDITS]     (default 1 300)
#   DECK_BIN   where deckd and deck-bench are (default .build/release)
#   KEEP=DIR   keep callgrind's files in DIR, for callgrind_annotate
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${DECK_BIN:-.build/release}
devices=${1:-1}
edits=${2:-300}
for tool in valgrind callgrind_control callgrind_annotate python3; do
    command -v "$tool" >/dev/null || { echo "callgrind-edits.sh: needs $tool (Debian's valgrind package has the callgrind tools)" >&2; exit 2; }
done
for product in deckd deck-bench; do
    [ -x "$bin/$product" ] || { echo "callgrind-edits.sh: no $bin/$product; build it (swift build -c release) or set DECK_BIN" >&2; exit 2; }
done
work=$(mktemp -d)
pid=
cleanup() {
    [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/layouts" "$work/state"
"$bin/deck-bench" --desk-profile "$work/layouts/desk.yaml"
valgrind --tool=callgrind --callgrind-out-file="$work/cg" --dump-instr=no --separate-threads=yes \
    "$bin/deckd" --layouts "$work/layouts" --state "$work/state" --listen 127.0.0.1:0 \
    --control "$work/control.sock" --no-web >"$work/log" 2>&1 &
pid=$!
port=
for _ in $(seq 240); do
    port=$(grep -ao "ready on 127.0.0.1:[0-9]*" "$work/log" | cut -d: -f2 || true)
    [ -n "$port" ] && break
    kill -0 "$pid" 2>/dev/null || { echo "callgrind-edits.sh: deckd ended before it was ready:" >&2; cat "$work/log" >&2; exit 1; }
    sleep 0.5
done
[ -n "$port" ] || { echo "callgrind-edits.sh: deckd was not ready after 120 s" >&2; exit 1; }
python3 "$here/edits.py" "$port" --devices "$devices" --edits "$edits" --warm-up 20 \
    --between "callgrind_control --zero $pid >/dev/null 2>&1"
callgrind_control --dump "$pid" >/dev/null 2>&1
total=$((devices * edits))
echo "instructions per edit over $total edits (thread 01 is the event loop, 02 the disk thread):"
for file in "$work"/cg.*-0*; do
    count=$(callgrind_annotate "$file" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
    [ -n "$count" ] && [ $((count / total)) -gt 0 ] || continue
    printf '  thread %s: %d\n' "${file##*-}" $((count / total))
done
if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP" && cp "$work"/cg.* "$KEEP"/ && echo "callgrind's files kept in $KEEP"; fi
