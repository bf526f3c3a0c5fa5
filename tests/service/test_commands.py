"""``companion serve`` and ``companion demo`` as a user runs them."""
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from companion.cli import main


def test_serve_refuses_a_bad_config_in_one_line(tmp_path, capsys):
    cfg = tmp_path / "c.toml"
    cfg.write_text("[service]\nprot = 80\n")
    assert main(["serve", "--config", str(cfg)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"companion serve: {cfg}: [service] prot: unknown key (known: " + err.split("(known: ")[1]
    assert "\n" not in err


def test_serve_help():
    with pytest.raises(SystemExit) as info:
        main(["serve", "--help"])
    assert info.value.code == 0


@pytest.mark.slow
def test_demo_starts_prints_the_address_and_stops_on_ctrl_c(tmp_path):
    child = subprocess.Popen([sys.executable, "-m", "companion", "demo", "--port", "0", "--host", "127.0.0.1",
                              "--pace", "0.05", "--data", str(tmp_path)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = child.stdout.readline()
        second = child.stdout.readline()
        assert first.startswith("companion demo: open http://127.0.0.1:") and "table code" in second
        url = first.split("open ")[1].split()[0]
        deadline = time.monotonic() + 90  # the simulated camera learns the tokens first (slow on a busy machine)
        actions = 0
        while time.monotonic() < deadline and actions < 3:
            import json
            actions = json.load(urllib.request.urlopen(url + "api/state")).get("actions", 0)
            time.sleep(0.1)
        assert actions >= 3  # the seeded game plays itself
        child.send_signal(signal.SIGINT)
        assert child.wait(10) == 0 or child.returncode == 130
        assert "Traceback" not in child.stderr.read()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
