import threading

import pytest
from gpiozero.pins.mock import MockFactory

from companion.hardware.display import TableDisplay
from companion.hardware.panel import Panel, make_pin_factory
from companion.hardware.settings import GpioSettings
from companion.inputs import Confirm, RollRequested, UndoRequested

S = GpioSettings(enabled=True)


@pytest.fixture
def panel(mock_pins, clock):
    inputs = []
    p = Panel(S, inputs.append, clock=clock)
    p.inputs = inputs
    yield p
    p.close()


def press(factory, clock, pin, hold=0.1):
    factory.pin(pin).drive_low()
    clock.advance(hold)
    factory.pin(pin).drive_high()
    clock.advance(0.1)


def test_roll_and_confirm_buttons_submit_inputs(panel, mock_pins, clock):
    press(mock_pins, clock, S.roll_button)
    press(mock_pins, clock, S.confirm_button)
    press(mock_pins, clock, S.roll_button)
    assert panel.inputs == [RollRequested("panel"), Confirm("panel"), RollRequested("panel")]


def test_contact_bounce_gives_one_roll(panel, mock_pins, clock):
    pin = mock_pins.pin(S.roll_button)
    for _ in range(4):
        pin.drive_low()
        clock.advance(0.002)
        pin.drive_high()
        clock.advance(0.002)
    pin.drive_low()
    clock.advance(0.5)
    panel.tick()
    assert panel.inputs == [RollRequested("panel")]


def test_undo_needs_the_two_second_hold(panel, mock_pins, clock):
    pin = mock_pins.pin(S.undo_button)
    press(mock_pins, clock, S.undo_button, hold=1.0)
    assert panel.inputs == []
    pin.drive_low()
    clock.advance(1.9)
    panel.tick()
    assert panel.inputs == []
    clock.advance(0.2)
    panel.tick()
    clock.advance(1.0)
    panel.tick()
    pin.drive_high()
    assert panel.inputs == [UndoRequested("panel")]


def test_green_led_follows_agreement(panel, mock_pins):
    green = mock_pins.pin(S.green_led)
    assert green.state is False
    panel.show(TableDisplay(round=1, agrees=True))
    assert green.state is True
    panel.show(TableDisplay(round=1, agrees=False))
    assert green.state is False


def test_alert_blinks_red_and_chirps_once(panel, mock_pins, clock):
    red, buzzer = mock_pins.pin(S.red_led), mock_pins.pin(S.buzzer)
    panel.show(TableDisplay(round=2, alert=True))
    reds, buzz = [], []
    for _ in range(8):
        reds.append(red.state)
        buzz.append(buzzer.state)
        clock.advance(S.blink_s / 2)
        panel.tick()
    assert reds == [True, True, False, False, True, True, False, False]
    assert buzz == [True] + [False] * 7
    panel.show(TableDisplay(round=2, alert=True, die=3))  # still the same alert: no second chirp
    assert buzzer.state is False
    panel.show(TableDisplay(round=2, alert=False))
    assert red.state is False


def test_show_from_another_thread_and_injected_factory(clock):
    factory = MockFactory()
    try:
        with Panel(S, lambda i: None, pin_factory=factory, clock=clock) as p:
            t = threading.Thread(target=p.show, args=(TableDisplay(agrees=True),))
            t.start()
            t.join(5)
            assert factory.pin(S.green_led).state is True
        with Panel(S, lambda i: None, pin_factory=factory, clock=clock):  # pins were released
            pass
    finally:
        factory.reset()


def test_pin_factory_names():
    assert make_pin_factory("") is None
    assert isinstance(make_pin_factory("mock"), MockFactory)
    with pytest.raises(ValueError):
        make_pin_factory("wiringpi")
