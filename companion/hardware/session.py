"""The host's half of the scoring box protocol (firmware/PROTOCOL.md) for one connection. No I/O.

``HostSession`` is fed the bytes the box sent and the time, and answers with bytes to send: the
hello handshake, the current ``STATE`` (resent until acknowledged), acknowledgements of ``DIE``.
Each die press becomes one ``RollRequested("scoring-box")`` however often the box resends it.
Every line that is not a good frame is dropped with one log line.
"""
from __future__ import annotations

import collections
import logging

from firmware import proto

from ..floods import Summary
from ..inputs import RollRequested, Submit
from .display import TableDisplay

log = logging.getLogger("companion.hardware.scoring_box")
SOURCE = "scoring-box"


def state_fields(s: TableDisplay) -> tuple:
    """The ``STATE`` fields for a snapshot."""
    colour = "%02X%02X%02X" % s.colour
    return (s.round, s.rounds, colour, "-" if s.die is None else s.die, int(s.alert), int(s.agrees))


class HostSession:
    """One connection's protocol state: handshake, sequence numbers, what the box has acknowledged."""

    def __init__(self, submit: Submit, ack_timeout_s: float = 0.5):
        self._submit = submit
        self._timeout = ack_timeout_s
        self._splitter = proto.LineSplitter()
        self._out = bytearray()
        self._seq = 0
        self.ready = False  # the box answered our HELLO in our version
        self.firmware: str | None = None
        self.snapshot: TableDisplay | None = None  # what the service wants shown
        self.acknowledged: TableDisplay | None = None  # what the box confirmed it shows
        self.problems = 0  # garbled lines, all told
        self._now = 0.0
        # a box sending garbage is one log line a minute, with the count (not 20,000 lines a second)
        self._garbage = Summary(log, "scoring box sent garbage, ignored: %s",
                                "%d garbled lines from the scoring box in the last minute")
        self._noise = Summary(log, "%s", "%d messages from the scoring box in the last minute (refusals, "
                              "restarts): is it the companion's firmware?")
        self._hello_at: float | None = None
        self._state_seq: int | None = None
        self._state_at = 0.0
        self._state_sent: TableDisplay | None = None
        self._dice_seen: collections.deque = collections.deque(maxlen=64)

    # ---- out ----

    def start(self, now: float) -> None:
        """Open the session: say HELLO."""
        self._hello(now)

    def show(self, snapshot: TableDisplay, now: float) -> None:
        """Make ``snapshot`` the state to show; sent at once if the box is ready."""
        self.snapshot = snapshot
        if self.ready and snapshot != self._state_sent:
            self._send_state(now)

    def output(self) -> bytes:
        """Take the bytes waiting to go to the box."""
        out = bytes(self._out)
        self._out.clear()
        return out

    def _send(self, kind: str, fields: tuple = ()) -> int:
        self._seq = (self._seq + 1) % proto.SEQ_MOD
        self._out += proto.encode(self._seq, kind, fields)
        return self._seq

    def _hello(self, now: float) -> None:
        self._send("HELLO", (proto.VERSION,))
        self._hello_at = now

    def _send_state(self, now: float) -> None:
        if self.snapshot is None:
            return
        self._state_seq = self._send("STATE", state_fields(self.snapshot))
        self._state_sent = self.snapshot
        self._state_at = now

    def tick(self, now: float) -> None:
        """Say HELLO again while unanswered; resend the state while unacknowledged."""
        self._now = now
        self._garbage.flush(now)
        self._noise.flush(now)
        if not self.ready:
            if self._hello_at is not None and now - self._hello_at >= self._timeout:
                log.debug("scoring box has not answered HELLO; saying it again")
                self._hello(now)
        elif self._state_seq is not None and now - self._state_at >= self._timeout:
            self._say(logging.INFO, f"scoring box did not acknowledge STATE {self._state_seq}; "
                      "sending the state again")
            self._send_state(now)

    # ---- in ----

    def feed(self, data: bytes, now: float) -> None:
        """Handle bytes from the box."""
        self._now = now
        for line, problem in self._splitter.feed(data):
            if problem is not None:
                self._problem(problem)
                continue
            try:
                seq, kind, fields = proto.decode(line)
            except proto.BadFrame as exc:
                self._problem(f"bad frame ({exc}): {line[:40]!r}")
                continue
            self._handle(seq, kind, fields, now)

    def _say(self, level: int, text: str) -> None:
        """A line about what the box said: the first few a minute in full, then one count."""
        self._noise.add(text, self._now, level)

    def _problem(self, text: str) -> None:
        self.problems += 1
        self._garbage.add(text, self._now)

    def _handle(self, seq: int, kind: str, fields: list[str], now: float) -> None:
        if kind == "HELLO":
            if len(fields) < 2:
                self._problem("HELLO without a firmware version (is the port echoing what we send?)")
            elif fields[0] == str(proto.VERSION):
                fresh = not self.ready
                self.ready = True
                self.firmware = fields[1]
                self._dice_seen.clear()
                self.acknowledged = None
                if fresh:
                    self._say(logging.INFO, f"scoring box ready (firmware {self.firmware[:20]})")
                self._send_state(now)
            else:
                self._say(logging.ERROR, f"scoring box speaks protocol {fields[0][:20]}, the companion "
                          f"{proto.VERSION}: flash the firmware again (deploy/flash-firmware.sh)")
        elif kind == "ACK":
            if fields and fields[0] == str(self._state_seq):
                self.acknowledged = self._state_sent
                self._state_seq = None
        elif kind == "NAK":
            reason = fields[1] if len(fields) > 1 else "?"
            if reason == "hello":
                self._say(logging.INFO, "scoring box forgot the session; saying HELLO again")
                self.ready = False
                self._hello(now)
            elif reason == "version":
                self._say(logging.ERROR, f"scoring box refused protocol {proto.VERSION}: flash the firmware "
                          "again (deploy/flash-firmware.sh)")
            else:
                if fields and fields[0] == str(self._state_seq):
                    self._state_seq = None  # the same state would be refused again: wait for the next one
                self._say(logging.ERROR, f"scoring box refused frame {fields[0][:20] if fields else '?'}: "
                          f"{reason[:40]}")
        elif kind == "DIE":
            self._send("ACK", (seq,))
            if seq in self._dice_seen:
                log.debug("scoring box resent DIE %d; already counted", seq)
                return
            self._dice_seen.append(seq)
            self._submit(RollRequested(SOURCE))
        else:
            self._problem(f"unknown kind {kind!r}")
