"""The scoring box's logic: protocol handling, what it shows, its die button. No pins here.

``ScoreBox`` is fed the bytes the host sent, the die button's level and the time (an integer
count of milliseconds); it answers with bytes to send back and a ``frame`` saying what the LEDs,
the 7-segment digit and the buzzer should show. ``hw.py`` runs it on the Pico, ``sim.py`` behind a
pseudo-terminal; tests run it directly. Plain Python that runs under MicroPython and CPython.
"""

try:
    from . import proto
except ImportError:  # copied flat onto a board
    import proto

FIRMWARE = "0.1.0"
TRACK = 10  # turn-track LEDs; pixel 10 is the active player's lamp
DEBOUNCE_MS = 30
RESEND_MS = 500  # a DIE event the host has not acknowledged is sent again ...
RESEND_TRIES = 3  # ... this many times in all
CHIRP_MS = 150
BLINK_MS = 500
KEEP_PROBLEMS = 8

OFF = (0, 0, 0)
PAST = (60, 45, 30)  # rounds already played: warm white
LAST = (150, 0, 0)  # the game's last round
ALERT = (255, 0, 0)
WAITING = (0, 0, 80)  # no host yet: the player lamp blinks blue


class ScoreBox:
    """One scoring box: display state, handshake, sequence numbers, acknowledgements."""

    def __init__(self, now=0):
        self.round = 0
        self.rounds = TRACK
        self.colour = OFF
        self.die = None
        self.alert = False
        self.agrees = False
        self.connected = False  # a host said HELLO in our protocol version
        self.problems = []  # the last few bad inputs, newest last, for the simulator's log
        self.problem_count = 0
        self._splitter = proto.LineSplitter()
        self._out = bytearray()
        self._seq = 0
        self._pending = None  # [seq, frame bytes, sent at, tries] of an unacknowledged DIE
        self._level = False
        self._changed_at = now - DEBOUNCE_MS
        self._chirp_until = now
        self._send("HELLO", (proto.VERSION, FIRMWARE))  # say who we are at boot

    def display(self):
        """The shown state as a tuple, for comparisons."""
        return (self.round, self.rounds, self.colour, self.die, self.alert, self.agrees)

    # ---- bytes in, bytes out ----

    def feed(self, data, now):
        """Handle bytes from the host."""
        for line, problem in self._splitter.feed(data):
            if problem is not None:
                self._problem(problem)
                continue
            try:
                seq, kind, fields = proto.decode(line)
            except proto.BadFrame as exc:
                self._problem("bad frame (%s)" % exc)
                continue
            self._handle(seq, kind, fields, now)

    def output(self):
        """Take the bytes waiting to go to the host."""
        out = bytes(self._out)
        self._out = bytearray()
        return out

    def _send(self, kind, fields=()):
        self._seq = (self._seq + 1) % proto.SEQ_MOD
        frame = proto.encode(self._seq, kind, fields)
        self._out.extend(frame)
        return self._seq, frame

    def _problem(self, text):
        self.problem_count += 1
        self.problems.append(text)
        if len(self.problems) > KEEP_PROBLEMS:
            self.problems.pop(0)

    def _handle(self, seq, kind, fields, now):
        if kind == "HELLO":
            if fields and fields[0] == str(proto.VERSION):
                self.connected = True
                self._send("HELLO", (proto.VERSION, FIRMWARE))
            else:
                self._send("NAK", (seq, "version"))
        elif kind == "STATE":
            if not self.connected:
                self._send("NAK", (seq, "hello"))
                return
            state = parse_state(fields)
            if state is None:
                self._problem("bad STATE fields %r" % (fields,))
                self._send("NAK", (seq, "state"))
                return
            if state[4] and not self.alert:
                self._chirp_until = now + CHIRP_MS
            (self.round, self.rounds, self.colour, self.die, self.alert, self.agrees) = state
            self._send("ACK", (seq,))
        elif kind == "ACK":
            if self._pending is not None and fields and fields[0] == str(self._pending[0]):
                self._pending = None
        elif kind == "NAK":
            self._problem("host refused frame %s" % (",".join(fields),))
        else:
            self._problem("unknown kind %r" % kind)
            self._send("NAK", (seq, "kind"))

    # ---- the die button and time ----

    def button(self, pressed, now):
        """The die button's level at ``now`` (polled); a debounced press sends DIE."""
        if pressed == self._level or now - self._changed_at < DEBOUNCE_MS:
            return
        self._level = pressed
        self._changed_at = now
        if not pressed:
            return
        if not self.connected:
            self._problem("die pressed with no host")
            return
        seq, frame = self._send("DIE")
        self._pending = [seq, frame, now, 1]

    def tick(self, now):
        """Send an unacknowledged DIE again: the same frame, same sequence number, so the host counts it once."""
        pending = self._pending
        if pending is None or now - pending[2] < RESEND_MS:
            return
        if pending[3] >= RESEND_TRIES:
            self._problem("DIE %d never acknowledged" % pending[0])
            self._pending = None
            return
        self._out.extend(pending[1])
        pending[2] = now
        pending[3] += 1

    # ---- what to show ----

    def frame(self, now):
        """``(pixels, digit, buzzer)``: 11 RGB tuples, one of "0123-" or " ", and the buzzer on/off."""
        blink = (now // BLINK_MS) % 2 == 0
        pixels = [OFF] * (TRACK + 1)
        if not self.connected:
            pixels[TRACK] = WAITING if blink else OFF
            return pixels, " ", now < self._chirp_until
        for i in range(self.rounds):
            number = i + 1
            if number < self.round:
                pixels[i] = PAST
            elif number == self.round:
                pixels[i] = LAST if (number == self.rounds and not blink) else self.colour
            elif number == self.rounds:
                pixels[i] = LAST
        pixels[TRACK] = ALERT if (self.alert and blink) else self.colour
        digit = "-" if self.die is None else str(self.die)
        return pixels, digit, now < self._chirp_until


def parse_state(fields):
    """``(round, rounds, colour, die, alert, agrees)`` from STATE fields, or None if any is wrong."""
    if len(fields) != 6:
        return None
    rnd, rounds, colour, die, alert, agrees = fields
    if not (rnd.isdigit() and rounds.isdigit() and len(rnd) <= 2 and len(rounds) <= 2):
        return None
    rnd, rounds = int(rnd), int(rounds)
    if not (1 <= rounds <= TRACK and 0 <= rnd <= rounds):
        return None
    if len(colour) != 6 or any(c not in "0123456789abcdefABCDEF" for c in colour):
        return None
    rgb = (int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16))
    if die == "-":
        die = None
    elif die in ("0", "1", "2", "3"):
        die = int(die)
    else:
        return None
    if alert not in ("0", "1") or agrees not in ("0", "1"):
        return None
    return rnd, rounds, rgb, die, alert == "1", agrees == "1"
