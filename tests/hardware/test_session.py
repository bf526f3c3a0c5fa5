"""The host session and the firmware's box talking through pyserial loop:// ports, one per direction."""
import logging
import random

import pytest
import serial

from companion.hardware.display import TableDisplay
from companion.hardware.session import HostSession
from companion.inputs import RollRequested
from firmware import proto
from firmware.scorebox import ScoreBox


class Wire:
    """Host and box joined by two loop:// ports; the box's lines get MicroPython's \\r\\n endings."""

    def __init__(self, clock):
        self.clock = clock
        self.inputs = []
        self.host = HostSession(self.inputs.append, ack_timeout_s=0.5)
        self.box = ScoreBox(self.ms())
        self.to_box = serial.serial_for_url("loop://", timeout=0)
        self.to_host = serial.serial_for_url("loop://", timeout=0)
        self.drop_to_box = False

    def ms(self):
        return int(self.clock() * 1000)

    def pump(self, rounds=4):
        for _ in range(rounds):
            out = self.host.output()
            if out and not self.drop_to_box:
                self.to_box.write(out)
            data = self.to_box.read(self.to_box.in_waiting)
            self.box.feed(data, self.ms())
            self.box.tick(self.ms())
            self.to_host.write(self.box.output().replace(b"\n", b"\r\n"))
            for chunk in iter(lambda: self.to_host.read(7), b""):  # torn into small reads
                self.host.feed(chunk, self.clock())
            self.host.tick(self.clock())

    def press(self):
        self.box.button(True, self.ms())
        self.clock.advance(0.1)
        self.box.button(False, self.ms())


@pytest.fixture
def wire(clock):
    w = Wire(clock)
    w.host.start(clock())
    w.pump()
    return w


S1 = TableDisplay(round=2, rounds=9, colour=(255, 0, 0), die=None, alert=False, agrees=True)
S2 = TableDisplay(round=2, rounds=9, colour=(0, 0, 255), die=3, alert=True, agrees=False)


def test_handshake_then_state_is_shown_and_acknowledged(wire, clock):
    assert wire.host.ready and wire.host.firmware
    wire.host.show(S1, clock())
    wire.pump()
    assert wire.box.display() == (2, 9, (255, 0, 0), None, False, True)
    assert wire.host.acknowledged == S1
    wire.host.show(S2, clock())
    wire.pump()
    assert wire.box.display() == (2, 9, (0, 0, 255), 3, True, False)
    assert wire.host.acknowledged == S2


def test_lost_state_is_resent_after_the_timeout(wire, clock):
    wire.drop_to_box = True
    wire.host.show(S1, clock())
    wire.pump()
    wire.drop_to_box = False
    assert wire.host.acknowledged is None
    clock.advance(0.6)
    wire.pump()
    assert wire.host.acknowledged == S1 and wire.box.round == 2


def test_die_press_rolls_once_even_when_the_ack_is_lost(wire, clock):
    wire.drop_to_box = True  # the host's ACK never arrives: the box sends DIE three times
    wire.press()
    for _ in range(4):
        wire.pump()
        clock.advance(0.6)
    assert wire.inputs == [RollRequested("scoring-box")]
    wire.drop_to_box = False
    wire.press()
    wire.pump()
    assert wire.inputs == [RollRequested("scoring-box")] * 2


def test_box_reboot_gets_the_state_again(wire, clock):
    wire.host.show(S1, clock())
    wire.pump()
    wire.box = ScoreBox(wire.ms())  # power cycle without the port going away
    wire.pump()
    assert wire.box.display() == (2, 9, (255, 0, 0), None, False, True)


def test_echoing_port_never_counts_as_a_box(clock, caplog):
    host = HostSession(lambda i: None)
    host.start(clock())
    host.feed(host.output(), clock())  # what a port with echo would hand back
    assert not host.ready
    assert "echoing" in caplog.text


def test_ten_thousand_random_bytes_are_logged_not_obeyed(wire, clock, caplog):
    wire.host.show(S1, clock())
    wire.pump()
    rng = random.Random(11)
    garbage = bytes(rng.randrange(256) for _ in range(10_000))
    with caplog.at_level(logging.WARNING):
        for i in range(0, len(garbage), 97):
            wire.host.feed(garbage[i:i + 97], clock())
    assert wire.inputs == [] and wire.host.ready and wire.host.acknowledged == S1
    assert wire.host.problems > 0
    assert all("garbage, ignored" in r.getMessage() for r in caplog.records)
    assert len(caplog.records) == min(wire.host.problems, 5)  # then one line a minute with the count
    wire.press()  # the next good frame still works
    wire.pump()
    assert wire.inputs == [RollRequested("scoring-box")]


def test_wrong_protocol_version_is_explained(clock, caplog):
    host = HostSession(lambda i: None)
    host.start(clock())
    host.feed(proto.encode(1, "HELLO", (9, "9.9")), clock())
    assert not host.ready and "flash the firmware again" in caplog.text


def test_a_refused_state_is_logged_once_not_resent_forever(clock, caplog):
    host = HostSession(lambda i: None)
    host.start(clock())
    host.feed(proto.encode(1, "HELLO", (1, "0.1.0")), clock())
    host.show(S1, clock())
    sent = [proto.decode(line) for line, p in proto.LineSplitter().feed(host.output()) if p is None]
    state_seq = [seq for seq, kind, _ in sent if kind == "STATE"][-1]
    host.feed(proto.encode(2, "NAK", (state_seq, "state")), clock())
    clock.advance(5)
    host.tick(clock())
    assert host.output() == b""
    assert caplog.text.count("refused frame") == 1
