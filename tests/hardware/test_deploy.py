"""CI checks of deploy/: shellcheck, systemd-analyze verify, install.sh --dry-run in a clean environment.

Each check skips with the reason when its Debian tool is missing (apt packages: shellcheck, systemd).
"""
import re
import shutil
import subprocess
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
    assert f"python3 -m venv --system-site-packages {prefix}/venv" in out
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
