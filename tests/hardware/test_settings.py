import pytest

from companion.hardware.display import TableDisplay
from companion.hardware.settings import HardwareSettings
from companion.inputs import Confirm, RollRequested


def test_defaults_leave_hardware_off():
    s = HardwareSettings.from_mapping({})
    assert not s.gpio.enabled and not s.scoring_box.enabled
    assert s.gpio.undo_hold_s == 2.0
    assert s.scoring_box.vid_pid == (0x2E8A, 0x0005)


def test_tables_are_mapped():
    s = HardwareSettings.from_mapping({"gpio": {"enabled": True, "roll_button": 5, "undo_hold_s": 3},
                                       "scoring_box": {"path": "/dev/scorebox"}, "web": {"port": 80}})
    assert s.gpio.enabled and s.gpio.roll_button == 5 and s.gpio.undo_hold_s == 3.0
    assert s.scoring_box.path == "/dev/scorebox"


@pytest.mark.parametrize("data, words", [
    ({"gpio": {"rol_button": 5}}, "[gpio] rol_button: unknown key"),
    ({"gpio": {"roll_button": "17"}}, "[gpio] roll_button: expected int"),
    ({"gpio": {"enabled": 1}}, "[gpio] enabled: expected bool"),
    ({"gpio": {"roll_button": 40}}, "[gpio] roll_button: expected a BCM GPIO number"),
    ({"gpio": {"buzzer": 17}}, "[gpio] buzzer: GPIO17 is already used by roll_button"),
    ({"gpio": {"pin_factory": "wiringpi"}}, "[gpio] pin_factory"),
    ({"gpio": {"undo_hold_s": 0}}, "[gpio] undo_hold_s"),
    ({"scoring_box": {"usb_id": "2e8a-0005"}}, "[scoring_box] usb_id"),
    ({"scoring_box": []}, "[scoring_box] must be a table"),
])
def test_bad_values_are_refused_in_one_line_naming_the_key(data, words):
    with pytest.raises(ValueError) as info:
        HardwareSettings.from_mapping(data, source="companion.toml")
    message = str(info.value)
    assert message.startswith("companion.toml: ") and words in message and "\n" not in message


def test_display_snapshot_validates():
    assert TableDisplay(round=10, rounds=10).last_round
    assert not TableDisplay(round=3, rounds=10).last_round
    for bad in ({"round": 11}, {"rounds": 11}, {"colour": (0, 0, 256)}, {"die": 4}):
        with pytest.raises(ValueError):
            TableDisplay(**bad)


def test_inputs_name_their_source():
    assert RollRequested("panel") != Confirm("panel")
    assert RollRequested("scoring-box") == RollRequested("scoring-box")
    with pytest.raises(ValueError):
        Confirm("keyboard")
