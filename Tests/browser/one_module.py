"""What the web deck's first draw would cost from a single module (issue 28): a
reading aid that puts a number on what WEB.md §6's "served as they are: no
build step" costs, not a way to ship the app.

It copies the app into a temporary folder and adds `one/`: the same
`index.html` whose two module scripts and every `modulepreload` are replaced by
one module, `one/first-draw.mjs`, holding every module of the first draw's
graph (boot.mjs and main.mjs with all they import, statically or, for
boot.mjs's connection.mjs, dynamically) each in its own function scope, in an
order where every module comes after what it imports. `app.css` stays its own
file, so the page loads three files against the floor page's two. What the
app loads after the first draw (the arrange session, the settings sheet) is
still fetched as its own files; those modules get their own copies of the
engine's classes, so only the first draw of the variant is meant to be read.

    DECK_BIN=.build/release python3 Tests/browser/one_module.py [ROUNDS]

Loads the deck, the one-module variant and bench.py's floor page in turn, each
from a blank page with the cache off (as bench.py's figure), ROUNDS times
(16 unless given) after one warm-up round, and prints each one's median page
load → first layout and its ratio to the floor page. Any import or export form
it does not know stops it with a message rather than a wrong variant."""

import os
import re
import shutil
import statistics
import sys
from pathlib import Path, PurePosixPath

sys.path.insert(0, str(Path(__file__).parent))
import bench  # noqa: E402

STATIC_IMPORT = re.compile(r"^import\s*\{([^}]*)\}\s*from\s*'([^']+)';", re.M)
DYNAMIC_IMPORT = re.compile(r"import\('([^']+)'\)")
EXPORT_DECLARATION = re.compile(r"^export ((?:async )?(?:function\*?|class|const) (\w+))", re.M)
EXPORT_LIST = re.compile(r"^export\s*\{([^}]*)\};", re.M)
MODULE_SCRIPT = re.compile(r'<script type="module"[^>]*src="([^"]+)"[^>]*></script>\n')
PRELOAD = re.compile(r'<link rel="modulepreload"[^>]*>\n')
VARIANT = "one"


def resolve(module, specifier):
    """A relative specifier of `module` (a path under the web root) as a path under the web root."""
    parts = []
    for part in (PurePosixPath(module).parent / specifier).parts:
        if part == "..":
            parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


def graph(web, entries):
    """The first draw's modules (static imports, and dynamic ones of modules already in the graph),
    each after everything it needs."""
    sources = {}

    def visit(module, seen):
        if module in sources:
            return
        if module in seen:
            raise SystemExit(f"unsupported: an import cycle through {module}")
        text = (web / module).read_text()
        needs = [resolve(module, m.group(2)) for m in STATIC_IMPORT.finditer(text)]
        for need in needs:
            visit(need, seen | {module})
        sources[module] = text

    for entry in entries:
        visit(entry, set())
    # A dynamic import of a module of the graph (boot.mjs's connection.mjs) must be evaluated first too.
    order = []
    for module in sources:
        for m in DYNAMIC_IMPORT.finditer(sources[module]):
            target = resolve(module, m.group(1))
            if target in sources and target not in order:
                order.append(target)
        if module not in order:
            order.append(module)
    return order, sources


def scoped(module, text, bundled):
    """`module`'s text in its own async function scope, its imports read from `__M`, its exports returned."""
    def static_import(m):
        names = re.sub(r"(\w+)\s+as\s+(\w+)", r"\1: \2", " ".join(m.group(1).split()))
        return f"const {{{names}}} = __M['{resolve(module, m.group(2))}'];"

    def dynamic_import(m):
        target = resolve(module, m.group(1))
        # Outside the graph: fetched as its own file, relative to one/first-draw.mjs's folder.
        return f"Promise.resolve(__M['{target}'])" if target in bundled else f"import('./{target}')"

    exported = []

    def declaration(m):
        exported.append(m.group(2))
        return m.group(1)

    def export_list(m):
        exported.extend(name.strip() for name in m.group(1).split(",") if name.strip())
        return ""

    text = STATIC_IMPORT.sub(static_import, text)
    text = DYNAMIC_IMPORT.sub(dynamic_import, text)
    text = EXPORT_DECLARATION.sub(declaration, text)
    text = EXPORT_LIST.sub(export_list, text)
    left = [line for line in text.splitlines() if re.match(r"\s*(import|export)\b", line)]
    if left:
        raise SystemExit(f"unsupported: {module} has an import or export this reading aid does not know: {left[0].strip()}")
    return f"__M['{module}'] = await (async () => {{\n{text}\nreturn {{ {', '.join(exported)} }};\n}})();\n"


def one_module_variant(web):
    """Adds `one/` (the app with its first draw in one module) to the web root `web`."""
    html = (web / "index.html").read_text()
    entries = MODULE_SCRIPT.findall(html)
    if not entries:
        raise SystemExit("unsupported: index.html has no module script")
    order, sources = graph(web, entries)
    variant = web / VARIANT
    shutil.copytree(web, variant, ignore=shutil.ignore_patterns(VARIANT, "floor", "test"))
    bundled = set(order)
    (variant / "first-draw.mjs").write_text(
        "// Made by Tests/browser/one_module.py for a measurement; not the app as shipped.\nconst __M = {};\n"
        + "".join(scoped(module, sources[module], bundled) for module in order))
    html = PRELOAD.sub("", MODULE_SCRIPT.sub("", html))
    html = html.replace('<link rel="stylesheet" href="app.css">',
                        '<script type="module" src="first-draw.mjs"></script>\n<link rel="stylesheet" href="app.css">')
    (variant / "index.html").write_text(html)
    return order


def main():
    counts = [a for a in sys.argv[1:] if a.isdigit()]
    rounds = int(counts[0]) if counts else 16
    from cdp import Browser
    bindir = Path(os.environ.get("DECK_BIN", ".build/release"))
    browser = Browser()
    order = []
    try:
        with bench.floor_host(bindir, "deck-one-module-", lambda web: order.extend(one_module_variant(web))) as host:
            urls = {"deck": host.url, "one module": host.url + f"{VARIANT}/index.html",
                    "floor page": host.url + "floor/index.html"}
            page = browser.new_page()
            bench.first_layouts(page, urls, 1)  # warms deckd's file cache and Chromium's process
            times = bench.first_layouts(page, urls, rounds)
    finally:
        browser.close()
    floor = statistics.median(times["floor page"])
    print(f"page load → first layout, median of {rounds}, cache off (the one module holds {len(order)} modules)")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"  {name:12} {median * 1000:6.1f} ms = {median / floor:.2f}× the floor page")


if __name__ == "__main__":
    main()
