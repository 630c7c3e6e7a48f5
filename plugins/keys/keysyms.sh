#!/bin/sh
# Writes keysyms.txt, the keysym names of xkbcommon (one a line), from the
# header of libxkbcommon-dev. The plugin suggests names from it for typos, and
# its manifest names it as the word list of the `keys` setting (docs/plugins.md).
# Run again when xkbcommon gains names; the file is committed so the plugin
# needs no development header at run time.
header=${1:-/usr/include/xkbcommon/xkbcommon-keysyms.h}
here=$(cd "$(dirname "$0")" && pwd)
sed -n 's/^#define XKB_KEY_\([A-Za-z0-9_]*\)[[:space:]].*/\1/p' "$header" | LC_ALL=C sort -u > "$here/keysyms.txt"
