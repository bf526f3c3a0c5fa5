"""CI checks of deploy/: shellcheck, systemd-analyze verify, install.sh --dry-run in a clean environment,
and install.sh for real into a throwaway root whose installed service then serves the dashboard.

Each check skips with the reason when its Debian tool is missing (apt packages: shellcheck, systemd).
"""
import os
import re
import shutil
import subprocess
import time
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.hardware.settings import PICO_MICROPYTHON_USB_ID

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
SCRIPTS = sorted(DEPLOY.glob("*.sh"))
CLEAN_ENV = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}


def need(tool):
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed (apt-get install {'systemd' if tool.startswith('systemd') else tool})")


def test_scripts_exist_and_are_executable():
    assert {p.name for p in SCRIPTS} >= {"install.sh", "flash-firmware.sh"}
    assert all(p.stat().st_mode & 0o111 for p in SCRIPTS)


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_shellcheck(script):
    need("shellcheck")
    result = subprocess.run(["shellcheck", "--severity=style", str(script)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout


def test_systemd_unit_verifies(tmp_path):
    need("systemd-analyze")
    units = Path("/usr/lib/systemd/system")
    if not (units / "sysinit.target").exists():
        pytest.skip("systemd's own units are not installed (apt-get install systemd)")
    # A root with systemd's units, the unit where install.sh puts it, and its ExecStart program.
    shutil.copytree(units, tmp_path / "usr/lib/systemd/system", symlinks=True)
    (tmp_path / "etc/systemd/system").mkdir(parents=True)
    shutil.copy(DEPLOY / "companion.service", tmp_path / "etc/systemd/system/companion.service")
    exec_start = re.search(r"^ExecStart=(\S+)", (DEPLOY / "companion.service").read_text(), re.M).group(1)
    program = tmp_path / exec_start.lstrip("/")
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    result = subprocess.run(["systemd-analyze", "verify", f"--root={tmp_path}", "--man=no",
                             "/etc/systemd/system/companion.service"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stderr.strip() == "", result.stderr


def test_unit_runs_the_service_and_restarts_on_failure():
    unit = (DEPLOY / "companion.service").read_text()
    assert re.search(r"^ExecStart=/opt/companion/venv/bin/companion serve$", unit, re.M)
    assert "Restart=on-failure" in unit and "StandardOutput=journal" in unit and "User=companion" in unit


def test_install_dry_run_in_a_clean_environment_changes_nothing(tmp_path):
    prefix = tmp_path / "opt"
    result = subprocess.run(["bash", str(DEPLOY / "install.sh"), "--dry-run", "--prefix", str(prefix)],
                            env=CLEAN_ENV | {"HOME": str(tmp_path)}, cwd=tmp_path,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert f"/usr/bin/python3 -m venv --system-site-packages {prefix}/venv" in out
    assert "--no-deps" in out and "numpy>=" not in out and "opencv" not in out.split("virtual environment")[1]
    for expected in ("python3-picamera2", "companion.service", "99-companion-scorebox.rules",
                     "/etc/avahi/services/companion.service", "systemctl restart companion"):
        assert expected in out
    assert not prefix.exists()
    again = subprocess.run(["bash", str(DEPLOY / "install.sh"), "--dry-run", "--prefix", str(prefix)],
                           env=CLEAN_ENV | {"HOME": str(tmp_path)}, capture_output=True, text=True, timeout=60)
    assert again.stdout == out


def test_install_refuses_unknown_options():
    result = subprocess.run(["bash", str(DEPLOY / "install.sh"), "--dry-rn"], env=CLEAN_ENV,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "unknown option --dry-rn" in result.stderr


def test_udev_rule_matches_the_default_usb_id():
    vid, pid = PICO_MICROPYTHON_USB_ID.split(":")
    rule = (DEPLOY / "99-companion-scorebox.rules").read_text()
    assert f'ATTRS{{idVendor}}=="{vid}"' in rule and f'ATTRS{{idProduct}}=="{pid}"' in rule
    assert 'SYMLINK+="scorebox"' in rule


def test_avahi_service_announces_http():
    tree = ET.parse(DEPLOY / "companion.avahi.service")
    assert tree.find("service/type").text == "_http._tcp"
    assert int(tree.find("service/port").text) == 80


def debian_stack_or_skip():
    """The Pi's Python stack: Debian's python3 with python3-venv, python3-numpy and python3-opencv."""
    probe = subprocess.run(["/usr/bin/python3", "-c", "import venv, ensurepip, numpy, cv2"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("Debian's Python stack is not installed (apt-get install python3-venv python3-numpy python3-opencv)")


@pytest.mark.slow
def test_install_into_a_throwaway_root_then_the_service_serves(tmp_path):
    """install.sh builds the real venv (Debian's numpy and OpenCV, the rest by pip) and copies the
    files under --root; what would change this machine is listed; the installed program serves."""
    debian_stack_or_skip()
    root = tmp_path / "root"
    install = ["bash", str(DEPLOY / "install.sh"), "--root", str(root)]
    env = CLEAN_ENV | {"HOME": str(tmp_path)}
    result = subprocess.run(install, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    installed = {"etc/systemd/system/companion.service": "companion.service",
                 "etc/udev/rules.d/99-companion-scorebox.rules": "99-companion-scorebox.rules",
                 "etc/avahi/services/companion.service": "companion.avahi.service"}
    for target, source in installed.items():
        assert (root / target).read_bytes() == (DEPLOY / source).read_bytes()
    for line in ("skipped (--root): systemctl restart companion", "skipped (--root): udevadm control --reload-rules"):
        assert line in out
    if subprocess.run(["/usr/bin/python3", "-c", "import picamera2"], capture_output=True).returncode != 0:
        said = [line for line in out.splitlines() if "python3-picamera2" in line]
        assert len(said) == 1 and 'source = "camera:0"' in said[0], out  # one clear line: the USB webcam instead
    venv = root / "opt/companion/venv"
    stack = subprocess.run([str(venv / "bin/python"), "-c", "import numpy, cv2; print(numpy.__file__, cv2.__file__)"],
                           capture_output=True, text=True, timeout=60)
    assert stack.stdout.count("/usr/lib/python3/dist-packages/") == 2, stack.stdout + stack.stderr

    # As the unit starts it (its ExecStart under the root, its environment), on a free port.
    unit = (root / "etc/systemd/system/companion.service").read_text()
    program = re.search(r"^ExecStart=(\S+) (.*)$", unit, re.M)
    state = tmp_path / "state"
    state.mkdir()
    child = subprocess.Popen([str(root) + program.group(1), *program.group(2).split(), "--host", "127.0.0.1", "--port", "0"],
                             env=env | {"STATE_DIRECTORY": str(state), "PYTHONUNBUFFERED": "1"}, cwd=state,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first = child.stdout.readline()
        assert "the table view is at http://127.0.0.1:" in first, first + child.stdout.read(2000)
        url = first.split(" at ")[1].strip()
        page = urllib.request.urlopen(url, timeout=30).read().decode()
        assert "<title>Small World" in page
        assert (state / "table-code").exists()  # the data went where systemd's StateDirectory says
    finally:
        child.terminate()
        child.wait(timeout=30)

    again = subprocess.run(install, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0 and f"ok: {venv} exists" in again.stdout and "ok: " + str(root / "etc/udev") in again.stdout
