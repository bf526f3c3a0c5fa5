import json
import subprocess
import sys

import pytest

from vision.cli import main


def run(*args):
    return subprocess.run([sys.executable, "-m", "vision", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("cmd", ["render", "enroll", "observe", "geometry", "markers"])
def test_every_command_has_help(cmd, capsys):
    with pytest.raises(SystemExit) as exit_:
        main([cmd, "--help"])
    assert exit_.value.code == 0
    assert "usage" in capsys.readouterr().out


@pytest.mark.slow
def test_render_enroll_observe(tmp_path):
    out = tmp_path / "r"
    assert run("render", "--map", "2p", "--seed", "3", "--frames", "2", "--samples", "2", "--out", str(out)).returncode == 0
    assert run("enroll", str(out / "samples"), "--out", str(out / "m.npz")).returncode == 0
    frames = sorted(str(p) for p in (out / "frames").iterdir())
    res = run("observe", "--geometry", str(out / "geometry.json"), "--model", str(out / "m.npz"),
              "--reference", str(out / "empty.png"), "--json", *frames)
    assert res.returncode == 0, res.stderr
    lines = [json.loads(line) for line in res.stdout.splitlines()]
    truth = json.loads((out / "truth.json").read_text())
    assert len(lines) == 2 and all(obs["registered"] for obs in lines)
    for obs in lines:
        name = obs["frame"].rsplit("/", 1)[-1]
        right = sum(obs["regions"][rid]["tokens"] == t["tokens"] for rid, t in truth[name]["regions"].items())
        assert right >= 0.9 * len(truth[name]["regions"])
    # User errors: one line, status 2.
    bad_geo = tmp_path / "bad.json"
    bad_geo.write_text("{not json")
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"not an image")
    base = ["observe", "--model", str(out / "m.npz"), "--reference", str(out / "empty.png")]
    for args in ([*base, "--geometry", str(bad_geo), frames[0]],
                 [*base, "--geometry", str(out / "geometry.json"), str(tmp_path / "missing.png")],
                 [*base, "--geometry", str(out / "geometry.json"), str(junk)]):
        res = run(*args)
        assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1, res.stderr
        assert "Traceback" not in res.stderr


def test_user_errors_are_one_line(tmp_path, capsys):
    assert main(["enroll", str(tmp_path / "nothing"), "--out", str(tmp_path / "m.npz")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("vision enroll:") and "\n" not in err
    assert main(["geometry", "--map", "7p", "--out", str(tmp_path / "g.json")]) == 2
    assert "no such map" in capsys.readouterr().err
