#!/bin/sh
# One long fuzzing campaign (docs/reliability.md): TARGET for SECONDS at the
# lowest priority, on a working corpus under .build-fuzz/campaign seeded from
# the committed one; crashes land in .build-fuzz/campaign/TARGET-crashes/.
# Usage: Fuzz/campaign.sh TARGET SECONDS
set -eu
target=$1 seconds=$2
root=$(cd "$(dirname "$0")/.." && pwd)
work=$root/.build-fuzz/campaign
mkdir -p "$work/$target-corpus" "$work/$target-crashes"
cd "$work"
SWIFT_BACKTRACE=enable=no exec nice -n 19 "$root/.build-fuzz/debug/deck-fuzz" "$target" \
    -max_total_time="$seconds" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
    -artifact_prefix="$work/$target-crashes/" -dict="$root/Fuzz/Dictionaries/$target.dict" \
    "$work/$target-corpus" "$root/Fuzz/Corpus/$target"
