import time

from companion.hardware.display import TableDisplay
from companion.hardware.settings import GpioSettings, HardwareSettings, ScoringBoxSettings
from companion.hardware.table import TableHardware
from companion.inputs import RollRequested
from firmware.sim import Simulator


def test_nothing_enabled_starts_nothing():
    hw = TableHardware.start(HardwareSettings(), lambda i: None)
    hw.show(TableDisplay(round=1))
    hw.close()
    assert hw.panel is None and hw.link is None and hw.problems == []


def test_both_parts_share_one_submit_and_one_show(mock_pins, tmp_path):
    sim = Simulator(link=str(tmp_path / "scorebox")).start()
    inputs = []
    settings = HardwareSettings(gpio=GpioSettings(enabled=True),
                                scoring_box=ScoringBoxSettings(enabled=True, path=sim.link, reconnect_s=0.05))
    hw = TableHardware.start(settings, inputs.append)
    try:
        snapshot = TableDisplay(round=3, agrees=True, colour=(1, 2, 3))
        hw.show(snapshot)
        assert mock_pins.pin(settings.gpio.green_led).state is True
        deadline = time.monotonic() + 5
        while hw.link.status.showing != snapshot and time.monotonic() < deadline:
            time.sleep(0.01)
        assert sim.box.display() == (3, 10, (1, 2, 3), None, False, True)
        sim.press_die()
        while not inputs and time.monotonic() < deadline:
            time.sleep(0.01)
        assert inputs == [RollRequested("scoring-box")]
    finally:
        hw.close()
        sim.unplug()


def test_a_panel_that_cannot_start_is_reported_not_fatal():
    settings = HardwareSettings(gpio=GpioSettings(enabled=True))

    class Broken:
        def __getattr__(self, name):
            raise RuntimeError("no GPIO here")

    hw = TableHardware.start(settings, lambda i: None, pin_factory=Broken())
    assert hw.panel is None and "GPIO panel not started" in hw.problems[0]
    hw.close()
