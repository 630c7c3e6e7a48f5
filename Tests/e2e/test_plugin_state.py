"""docs/plugins.md: a plugin's state folder, named to it in DECK_PLUGIN_STATE, is the host's
<state>/plugins/<id> even when deckd was given a relative --state (as `make run` does):
the plugin runs in its own folder, where a relative name would point somewhere else."""
import time

from conftest import install_script_plugin

LAYOUT = """\
pages:
  - buttons:
      0: {name: Probe, action: {plugin: probe, command: go}}
"""

# At its hello, writes where it was told its state lives into that folder.
AT_HELLO = """
folder = os.environ["DECK_PLUGIN_STATE"]
with open(os.path.join(folder, "told.new"), "w") as f:
    f.write(folder)
os.rename(os.path.join(folder, "told.new"), os.path.join(folder, "told"))
"""


def test_a_relative_state_folder_is_named_to_the_plugin_as_the_hosts_own(deck, tmp_root):
    root = tmp_root / "host1"
    folder = install_script_plugin(root, "probe", on_hello=AT_HELLO)
    host = deck(yaml=LAYOUT, relative_state=True)
    told = root / "state" / "plugins" / "probe" / "told"
    deadline = time.time() + 20
    while not told.exists():
        assert host.proc.poll() is None, host.log_text()[-2000:]
        assert time.time() < deadline, "the plugin never wrote into the host's state folder:\n" + host.log_text()[-2000:]
        time.sleep(0.05)
    assert told.read_text() == str(root / "state" / "plugins" / "probe")
    assert not (folder / "state").exists(), "nothing made inside the plugin's own folder"
