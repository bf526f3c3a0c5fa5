"""A stand-in for MicroPython's ``machine`` module: pins that remember their values."""


class Pin:
    IN, OUT, PULL_UP = 0, 1, 2
    levels: dict = {}  # input levels the test sets, by pin number

    def __init__(self, number, mode=IN, pull=None):
        self.number, self.mode, self.pull = number, mode, pull
        self._value = 1 if pull == Pin.PULL_UP else 0

    def value(self, v=None):
        if v is None:
            return Pin.levels.get(self.number, self._value) if self.mode == Pin.IN else self._value
        self._value = int(v)
