"""The command line: every numeric option has a range, every path is checked, and every message
names the option or the file, in one line, with exit status 2."""
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from maps.files import number


def run(*argv, timeout=120):
    r = subprocess.run([sys.executable, "-m", *argv], capture_output=True, text=True, timeout=timeout)
    return r.returncode, r.stdout, r.stderr


@pytest.mark.parametrize("argv, words", [
    (("vision", "markers", "--size", "-5"), "argument --size"),
    (("vision", "markers", "--size", "0"), "argument --size"),
    (("vision", "markers", "--size", "500"), "argument --size"),
    (("vision", "markers", "--dpi", "0"), "argument --dpi"),
    (("vision", "render", "--frames", "-3"), "argument --frames"),
    (("vision", "render", "--samples", "0"), "argument --samples"),
    (("calibration", "watch", "--frames", "0"), "argument --frames"),
    (("companion", "islands", "values", "/nonexistent.json"), "/nonexistent.json: cannot read"),
    (("companion", "islands", "values", "/dev/zero"), "not a regular file"),
    (("companion", "replay", "/dev/zero"), "not a regular file"),
    (("companion", "serve", "--data", "/etc/passwd"), "not a folder"),
    (("companion", "serve", "--port", "70000"), "--port"),
    (("companion", "simulate", "--players", "-3"), "--players"),
    (("companion", "simulate", "--map", "/dev/zero"), "not a regular file"),
])
def test_a_bad_option_is_one_line_naming_it(tmp_path, argv, words):
    if argv[0] in ("vision",) and "--out" not in argv:
        argv = (*argv, "--out", str(tmp_path / "out"))
    if argv[0] == "calibration":
        argv = ("calibration", "--dir", str(tmp_path / "cal"), "--yes", *argv[1:])
    status, out, err = run(*argv)
    assert status == 2, (status, out, err)
    last = err.strip().splitlines()[-1]
    assert words in last and "Traceback" not in err, err


def test_a_camera_that_is_not_there_is_one_line_without_opencv_warnings(tmp_path):
    status, out, err = run("calibration", "--dir", str(tmp_path), "--camera", "camera:7", "--yes", "camera")
    assert status != 0 and "WARN" not in err and "camera:7" in err and err.count("\n") == 1, err


@settings(max_examples=200, deadline=None, derandomize=True)  # a loaded machine may pause any call
@given(text=st.one_of(st.text(max_size=40), st.floats(allow_nan=True).map(str), st.integers().map(str)))
def test_a_ranged_option_accepts_only_its_range(text):
    import argparse
    for parse, low, high in ((number(1, 1000), 1, 1000), (number(5, 60, float), 5, 60)):
        try:
            value = parse(text)
        except argparse.ArgumentTypeError as exc:
            assert "must be" in str(exc) and "\n" not in str(exc)
        else:
            assert low <= value <= high
