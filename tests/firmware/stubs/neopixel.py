"""A stand-in for MicroPython's ``neopixel`` module: a pixel buffer and what was last written."""


class NeoPixel:
    def __init__(self, pin, n):
        self.pin, self.n = pin, n
        self.buf = [(0, 0, 0)] * n
        self.written = None

    def __setitem__(self, i, rgb):
        self.buf[i] = tuple(rgb)

    def __getitem__(self, i):
        return self.buf[i]

    def write(self):
        self.written = list(self.buf)
