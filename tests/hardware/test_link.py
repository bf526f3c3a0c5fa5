"""The whole path: ScoringBoxLink -> pyserial -> a real pty -> the firmware's logic in the simulator."""
import os
import signal
import subprocess
import sys
import time

import pytest

from companion.hardware.display import TableDisplay
from companion.hardware.link import ScoringBoxLink, find_port
from companion.hardware.settings import ScoringBoxSettings
from companion.inputs import RollRequested
from firmware.sim import Simulator

S1 = TableDisplay(round=4, rounds=10, colour=(0, 200, 0), die=2, alert=False, agrees=True)
S2 = TableDisplay(round=5, rounds=10, colour=(200, 0, 0), die=None, alert=True, agrees=False)


def wait_until(condition, timeout=5.0):
    """Poll ``condition`` until true; fail after ``timeout`` (a bound, not a timing assertion)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {condition.__doc__ or condition}")
        time.sleep(0.01)


def settings(path):
    return ScoringBoxSettings(enabled=True, path=str(path), reconnect_s=0.05, ack_timeout_s=0.3)


@pytest.fixture
def sim(tmp_path):
    s = Simulator(link=str(tmp_path / "scorebox")).start()
    yield s
    s.unplug()


def test_state_reaches_the_box_and_its_die_reaches_the_queue(sim):
    inputs = []
    with ScoringBoxLink(settings(sim.link), inputs.append) as link:
        link.show(S1)
        wait_until(lambda: link.status.showing == S1)
        assert sim.box.display() == (4, 10, (0, 200, 0), 2, False, True)
        assert link.status.state == "ready" and link.status.firmware
        sim.press_die()
        wait_until(lambda: inputs == [RollRequested("scoring-box")])
        link.show(S2)
        wait_until(lambda: sim.box.alert)
        assert sim.box.display() == (5, 10, (200, 0, 0), None, True, False)


def test_unplug_and_replug_reconnects_and_resends_the_state(sim, tmp_path):
    inputs = []
    with ScoringBoxLink(settings(sim.link), inputs.append) as link:
        link.show(S1)
        wait_until(lambda: link.status.showing == S1)
        sim.unplug()
        wait_until(lambda: link.status.state == "looking")
        link.show(S2)  # the game moves on while the box is away
        replugged = Simulator(link=sim.link).start()
        try:
            wait_until(lambda: link.status.showing == S2)
            assert replugged.box.display() == (5, 10, (200, 0, 0), None, True, False)
            replugged.press_die()
            wait_until(lambda: inputs == [RollRequested("scoring-box")])
        finally:
            replugged.unplug()


def test_killing_the_simulator_process_is_an_unplug(tmp_path):
    link_path = str(tmp_path / "scorebox")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))

    def start():
        proc = subprocess.Popen([sys.executable, "-m", "firmware.sim", "--link", link_path],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
        proc.stdout.readline()  # the pty path: the box is plugged in
        return proc

    inputs = []
    proc = start()
    try:
        with ScoringBoxLink(settings(link_path), inputs.append) as link:
            link.show(S1)
            wait_until(lambda: link.status.showing == S1)
            proc.kill()
            proc.wait(5)
            wait_until(lambda: link.status.state == "looking")
            proc = start()
            wait_until(lambda: link.status.state == "ready" and link.status.showing == S1)
            proc.send_signal(signal.SIGUSR1)
            wait_until(lambda: inputs == [RollRequested("scoring-box")])
    finally:
        proc.kill()
        proc.wait(5)


def test_garbage_on_the_line_is_logged_and_the_link_carries_on(sim, caplog):
    inputs = []
    with ScoringBoxLink(settings(sim.link), inputs.append) as link:
        link.show(S1)
        wait_until(lambda: link.status.showing == S1)
        os.write(sim._master, b"MicroPython v1.22.0 on 2024-01-01\r\n>>> \r\n$12,DI\xff\xfe$3,ACK*0000\r\n")
        wait_until(lambda: link.status.problems >= 3)
        sim.press_die()
        wait_until(lambda: inputs == [RollRequested("scoring-box")])
    assert "junk line 'MicroPython" in caplog.text and "torn line" in caplog.text
    assert "checksum mismatch" in caplog.text


def test_show_never_blocks_while_the_box_is_missing(tmp_path):
    with ScoringBoxLink(settings(tmp_path / "absent"), lambda i: None) as link:
        for n in range(1, 11):
            link.show(TableDisplay(round=n))
        wait_until(lambda: link.status.state == "looking")
    assert link.status.state == "stopped"


def test_find_port_by_path_and_usb_id(tmp_path, monkeypatch):
    assert find_port(ScoringBoxSettings(path="loop://")) == "loop://"
    assert find_port(ScoringBoxSettings(path=str(tmp_path / "nope"))) is None

    class Port:
        def __init__(self, device, vid, pid):
            self.device, self.vid, self.pid = device, vid, pid

    monkeypatch.setattr("serial.tools.list_ports.comports",
                        lambda: [Port("/dev/ttyUSB0", 0x0403, 0x6001), Port("/dev/ttyACM1", 0x2E8A, 0x0005)])
    assert find_port(ScoringBoxSettings()) == "/dev/ttyACM1"
    assert find_port(ScoringBoxSettings(usb_id="1234:5678")) is None


def test_sim_path_runs_a_simulated_box_inside_the_link():
    inputs = []
    with ScoringBoxLink(ScoringBoxSettings(enabled=True, path="sim"), inputs.append) as link:
        link.show(S1)
        wait_until(lambda: link.status.showing == S1)
        link.simulator.press_die()
        wait_until(lambda: inputs == [RollRequested("scoring-box")])
