import re

import pytest

from firmware import proto


def test_crc_check_value():
    assert proto.crc16(b"123456789") == 0x29B1


def test_round_trip_and_both_line_endings():
    frame = proto.encode(42, "STATE", (3, 10, "1E90FF", "-", 0, 1))
    assert frame.startswith(b"$42,STATE,3,10,1E90FF,-,0,1*") and frame.endswith(b"\n")
    s = proto.LineSplitter()
    lines = s.feed(frame + frame.replace(b"\n", b"\r\n"))
    assert [problem for _, problem in lines] == [None, None]
    for line, _ in lines:
        assert proto.decode(line) == (42, "STATE", ["3", "10", "1E90FF", "-", "0", "1"])
    body, crc = frame.strip().split(b"*")
    assert proto.decode(body + b"*" + crc.lower())[0] == 42  # either case of hex digits


@pytest.mark.parametrize("line, why", [
    (b"42,ACK,1*0000", "no $"),
    (b"$42,ACK,1", "no *checksum"),
    (b"$42,ACK,1*ZZZZ", "not hex"),
    (b"$42,ACK,2*" + b"%04X" % proto.crc16(b"42,ACK,1"), "checksum mismatch"),
    (b"$x,ACK*" + b"%04X" % proto.crc16(b"x,ACK"), "no sequence number"),
    (b"$1,A\x01*" + b"%04X" % proto.crc16(b"1,A\x01"), "not printable"),
])
def test_bad_frames_say_why(line, why):
    with pytest.raises(proto.BadFrame, match=re.escape(why)):
        proto.decode(line)


def test_torn_lines_junk_and_long_lines_are_reported_and_the_next_frame_kept():
    good = proto.encode(7, "DIE")
    s = proto.LineSplitter()
    out = s.feed(b"MicroPython v1.22\r\n" + b"$3,STA" + good + b"x" * 300 + b"\n" + b"\r\n" + good)
    problems = [p for _, p in out if p]
    assert problems[0].startswith("junk line 'MicroPython")
    assert problems[1].startswith("torn line '$3,STA'")
    assert problems[2].startswith("line longer than")
    assert [line for line, p in out if p is None] == [good.strip(), good.strip()]


def test_a_frame_after_a_long_line_without_ending_is_kept():
    good = proto.encode(8, "DIE")
    out = proto.LineSplitter().feed(b"y" * 500 + good)
    assert out[-1] == (good.strip(), None)


def test_the_examples_in_protocol_md_are_valid_frames():
    from pathlib import Path
    text = (Path(proto.__file__).parent / "PROTOCOL.md").read_text()
    examples = re.findall(r"\$\d+,[A-Z]+[^*\s]*\*[0-9A-F]{4}", text)
    assert len(examples) >= 7
    for frame in examples:
        proto.decode(frame.encode())
