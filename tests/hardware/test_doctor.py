import time

import pytest

from companion.cli import main
from companion.hardware.doctor import DoctorContext, check_clock, check_disk, check_gpio, check_scoring_box
from companion.hardware.settings import GpioSettings, HardwareSettings, ScoringBoxSettings
from firmware.sim import Simulator


def ctx(**kw):
    return DoctorContext(**kw)


def box(path):
    return HardwareSettings(scoring_box=ScoringBoxSettings(enabled=True, path=str(path)))


def test_scoring_box_answers_the_handshake(tmp_path):
    sim = Simulator(link=str(tmp_path / "scorebox")).start()
    try:
        result = check_scoring_box(ctx(settings=box(sim.link)))
    finally:
        sim.unplug()
    assert result.status == "ok" and "firmware 0.1.0" in result.message


def test_missing_or_silent_box_says_how_to_fix(tmp_path):
    missing = check_scoring_box(ctx(settings=box(tmp_path / "scorebox")))
    assert missing.status == "fail" and "/dev/scorebox" in missing.fix
    silent = Simulator()  # a pty nobody answers on: like a Pico without the firmware
    try:
        result = check_scoring_box(ctx(settings=box(silent.path), handshake_s=0.3))
    finally:
        silent.unplug()
    assert result.status == "fail" and "flash-firmware.sh" in result.fix


def test_gpio_check_claims_and_releases_the_pins():
    settings = HardwareSettings(gpio=GpioSettings(enabled=True, pin_factory="mock"))
    assert check_gpio(ctx(settings=settings)).status == "ok"
    assert check_gpio(ctx()).status == "skip"


def test_disk_and_clock_thresholds(tmp_path):
    mb = 2**20
    assert check_disk(ctx(data_dir=str(tmp_path), disk_usage=lambda p: (0, 0, 100 * mb))).status == "fail"
    assert check_disk(ctx(data_dir=str(tmp_path), disk_usage=lambda p: (0, 0, 500 * mb))).status == "warn"
    assert check_disk(ctx(data_dir=str(tmp_path), disk_usage=lambda p: (0, 0, 5000 * mb))).status == "ok"
    y2k = time.mktime((2000, 1, 1, 0, 0, 0, 0, 0, 0))
    assert check_clock(ctx(wall_clock=lambda: y2k, ntp_synchronized=lambda: None)).status == "fail"
    now = time.mktime((2025, 6, 1, 0, 0, 0, 0, 0, 0))
    assert check_clock(ctx(wall_clock=lambda: now, ntp_synchronized=lambda: False)).status == "warn"
    assert check_clock(ctx(wall_clock=lambda: now, ntp_synchronized=lambda: True)).status == "ok"


def test_command_reports_each_check_and_fails_on_a_problem(tmp_path, capsys):
    config = tmp_path / "companion.toml"
    config.write_text(f'[scoring_box]\nenabled = true\npath = "{tmp_path / "absent"}"\n[gpio]\nenabled = false\n')
    cameraless = ["--skip", "camera", "--skip", "markers", "--skip", "calibration", "--skip", "address"]
    status = main(["doctor", "--config", str(config), *cameraless, "--data", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == 1
    assert "fail  scoring box: not found" in out and "fix: plug the box" in out
    assert "skip  gpio" in out and not any(line.startswith(("ok    camera", "fail  camera")) for line in out.splitlines())
    assert main(["doctor", *cameraless, "--skip", "clock", "--data", str(tmp_path)]) == 0
    assert capsys.readouterr().out.endswith("all checks passed\n")


@pytest.mark.parametrize("text, words", [
    ("[gpio]\nroll_buton = 4\n", "[gpio] roll_buton: unknown key"),
    ("[gpio\n", "not valid TOML"),
])
def test_bad_configuration_is_one_line(tmp_path, capsys, text, words):
    config = tmp_path / "companion.toml"
    config.write_text(text)
    assert main(["doctor", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
