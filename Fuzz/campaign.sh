#!/bin/sh
# One long fuzzing campaign (docs/reliability.md): TARGET for SECONDS at the
# lowest priority, on a working corpus under .build-fuzz/campaign seeded from
# the committed one; crashes land in .build-fuzz/campaign/TARGET-crashes/.
# It runs a copy of the binary, so `make fuzz-build` may rebuild meanwhile.
# Usage: Fuzz/campaign.sh TARGET SECONDS
set -eu
target=$1 seconds=$2
root=$(cd "$(dirname "$0")/.." && pwd)
work=$root/.build-fuzz/campaign
mkdir -p "$work/$target-corpus" "$work/$target-crashes"
cp "$root/.build-fuzz/debug/deck-fuzz" "$work/deck-fuzz-$target"
# A request head is refused over 8 KiB (WEB.md §2): its inputs may be longer than the others'.
case $target in
    http-head) max_len=12288 ;;
    *) max_len=8192 ;;
esac
cd "$work"
SWIFT_BACKTRACE=enable=no exec nice -n 19 "$work/deck-fuzz-$target" "$target" \
    -max_total_time="$seconds" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
    -artifact_prefix="$work/$target-crashes/" -dict="$root/Fuzz/Dictionaries/$target.dict" \
    "$work/$target-corpus" "$root/Fuzz/Corpus/$target"
