"""firmware/hw.py under CPython with stub machine and neopixel modules and a pipe for USB serial."""
import io
import os


from firmware import proto


class StubTime:
    def __init__(self):
        self.ms = 0

    def ticks_ms(self):
        return self.ms

    def ticks_diff(self, a, b):
        return a - b

    def sleep_ms(self, ms):
        self.ms += ms


def test_the_pin_layer_serves_the_host_and_lights_the_pins(monkeypatch):
    import machine

    from firmware import hw
    monkeypatch.setattr(hw, "time", StubTime())
    read_fd, write_fd = os.pipe()
    stdin = os.fdopen(read_fd, "rb", buffering=0)
    os.write(write_fd, proto.encode(1, "HELLO", (1,)) + proto.encode(2, "STATE", (1, 10, "FF8000", 3, 0, 1)))
    stdout = io.BytesIO()
    pins = hw.Pins()
    monkeypatch.setitem(machine.Pin.levels, hw.BUTTON_PIN, 1)
    try:
        box = hw.run(pins=pins, stdin=stdin, stdout=stdout, clock=hw.Millis(), loops=3)
    finally:
        stdin.close()
        os.close(write_fd)
    kinds = [proto.decode(line)[1] for line, p in proto.LineSplitter().feed(stdout.getvalue()) if p is None]
    assert kinds == ["HELLO", "HELLO", "ACK"]
    assert box.round == 1
    assert pins.pixels.written[0] == (0xFF >> 2, 0x80 >> 2, 0)
    lit = [p.value() for p in pins.segments]
    assert lit == [1, 1, 1, 1, 0, 0, 1]  # "3": a b c d g
    assert pins.buzzer.value() == 0
