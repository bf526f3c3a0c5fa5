"""The thin layer that touches the Pico's pins: USB serial, NeoPixels, 7-segment digit, button, buzzer.

Everything it decides comes from ``scorebox.ScoreBox``; this file only moves bytes and levels.
Pins are GP numbers (see docs/hardware.md). Ctrl-C still stops it, so mpremote can take over.
"""

import select
import sys
import time

import machine
import neopixel

try:
    from . import scorebox
except ImportError:  # copied flat onto a board
    import scorebox

PIXEL_PIN = 2
SEGMENT_PINS = (10, 11, 12, 13, 14, 15, 16)  # segments a, b, c, d, e, f, g (common cathode)
BUTTON_PIN = 20  # to GND; internal pull-up
BUZZER_PIN = 21  # transistor base via 1 kOhm; active buzzer
BRIGHTNESS_SHIFT = 2  # divide colours by 4: 11 pixels stay well inside USB power
LOOP_MS = 5

SEGMENTS = {"0": "abcdef", "1": "bc", "2": "abdeg", "3": "abcdg", "-": "g", " ": ""}


class Millis:
    """A millisecond count that does not wrap, built from ``time.ticks_ms``."""

    def __init__(self):
        self._last = time.ticks_ms()
        self._now = 0

    def __call__(self):
        t = time.ticks_ms()
        self._now += time.ticks_diff(t, self._last)
        self._last = t
        return self._now


class Pins:
    """The box's outputs and its button."""

    def __init__(self):
        self.pixels = neopixel.NeoPixel(machine.Pin(PIXEL_PIN), scorebox.TRACK + 1)
        self.segments = [machine.Pin(n, machine.Pin.OUT) for n in SEGMENT_PINS]
        self.button = machine.Pin(BUTTON_PIN, machine.Pin.IN, machine.Pin.PULL_UP)
        self.buzzer = machine.Pin(BUZZER_PIN, machine.Pin.OUT)

    def pressed(self):
        return self.button.value() == 0

    def show(self, frame):
        pixels, digit, buzzer = frame
        for i, (r, g, b) in enumerate(pixels):
            self.pixels[i] = (r >> BRIGHTNESS_SHIFT, g >> BRIGHTNESS_SHIFT, b >> BRIGHTNESS_SHIFT)
        self.pixels.write()
        lit = SEGMENTS.get(digit, "")
        for pin, name in zip(self.segments, "abcdefg"):
            pin.value(1 if name in lit else 0)
        self.buzzer.value(1 if buzzer else 0)


def run(pins=None, stdin=None, stdout=None, clock=None, loops=-1):
    """Serve the host forever (or ``loops`` times: tests run a few with stub modules)."""
    pins = pins or Pins()
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    clock = clock or Millis()
    poller = select.poll()
    poller.register(stdin, select.POLLIN)
    box = scorebox.ScoreBox(clock())
    shown = None
    while loops != 0:
        loops -= 1
        now = clock()
        while poller.poll(0):
            data = stdin.read(1)
            if not data:
                break
            box.feed(data, now)
        box.button(pins.pressed(), now)
        box.tick(now)
        out = box.output()
        if out:
            stdout.write(out)
        frame = box.frame(now)
        if frame != shown:
            pins.show(frame)
            shown = frame
        time.sleep_ms(LOOP_MS)
    return box
