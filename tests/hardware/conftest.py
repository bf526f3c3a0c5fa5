import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self, t: float = 100.0):
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def mock_pins():
    """gpiozero's mock pins as the default factory, reset after the test (GPIOPinInUse otherwise)."""
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = None
