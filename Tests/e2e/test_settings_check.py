"""Typed plugin settings end to end: the real deckctl checks a profile against
the repository's plugin manifests, and a real deckd reports the same problem
when it loads the profile (and still serves it), and forgets it once fixed.
Each step waits on a reply or a log line, never on a sleep."""
import json
import subprocess
import time
from pathlib import Path

from keys_x11 import keys_plugin_folder

REPO = Path(__file__).resolve().parents[2]

TYPO = """\
name: default
pages:
  - buttons:
      0: {name: Copy, action: {plugin: keys, command: press, settings: {keys: "ctlr+c"}}}
      1: {name: Paste, action: {plugin: keys, command: press, settings: {keys: "ctrl+v"}}}
"""
MESSAGE = ("unknown name 'ctlr' in setting 'keys' of keys press; did you mean 'ctrl'? "
           "(the names are those of keysyms.txt, aliases.txt in the plugin's folder)")


def test_deckctl_check_finds_a_mistyped_key_at_its_column(bindir, tmp_root):
    layouts = tmp_root / "layouts"
    layouts.mkdir()
    (layouts / "copy.yaml").write_text(TYPO)
    run = subprocess.run([str(bindir / "deckctl"), "check", "--plugins", str(REPO / "plugins"), str(layouts / "copy.yaml")],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 65, (run.stdout, run.stderr)
    assert run.stdout.splitlines() == [f"{layouts / 'copy.yaml'}:4:80: {MESSAGE}"]
    (layouts / "copy.yaml").write_text(TYPO.replace("ctlr", "ctrl"))
    fixed = subprocess.run([str(bindir / "deckctl"), "check", "--plugins", str(REPO / "plugins"), str(layouts / "copy.yaml")],
                           capture_output=True, text=True, timeout=60)
    assert (fixed.returncode, fixed.stdout) == (0, "")


def test_deckd_loads_the_profile_and_reports_the_setting(deck, bindir, tmp_root):
    plugins = keys_plugin_folder(tmp_root, bindir)
    host = deck(yaml=TYPO, extra=["--no-web", "--plugins", str(plugins)], env={"DISPLAY": ""})
    status = json.loads(host.ctl("--json", "status").stdout)
    assert status["profile"] == "default", "a bad setting does not keep the profile from loading"
    assert {"file": "default.yaml", "line": 4, "column": 80, "message": MESSAGE} in status["problems"]
    assert f"default.yaml:4:80: {MESSAGE}" in host.log_text()
    (host.root / "layouts" / "default.yaml").write_text(TYPO.replace("ctlr", "ctrl"))
    host.ctl("reload")
    status = json.loads(host.ctl("--json", "status").stdout)
    assert not [p for p in status["problems"] if "ctlr" in p["message"]], status["problems"]
