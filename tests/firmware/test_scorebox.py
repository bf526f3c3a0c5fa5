import random

from firmware import proto, scorebox
from firmware.scorebox import LAST, PAST, ScoreBox


def frames(data):
    """Decoded frames in bytes the box sent."""
    return [proto.decode(line) for line, problem in proto.LineSplitter().feed(data) if problem is None]


def host(seq, kind, *fields):
    return proto.encode(seq, kind, fields)


def connected_box():
    box = ScoreBox(now=0)
    box.feed(host(1, "HELLO", 1), 0)
    box.output()
    return box


def test_boot_hello_and_handshake():
    box = ScoreBox(now=0)
    assert frames(box.output()) == [(1, "HELLO", ["1", scorebox.FIRMWARE])]
    box.feed(host(5, "STATE", 1, 10, "FF0000", "-", 0, 1), 0)
    assert frames(box.output()) == [(2, "NAK", ["5", "hello"])]
    box.feed(host(6, "HELLO", 2), 0)
    assert frames(box.output()) == [(3, "NAK", ["6", "version"])]
    assert not box.connected
    box.feed(host(7, "HELLO", 1), 0)
    assert frames(box.output()) == [(4, "HELLO", ["1", scorebox.FIRMWARE])]
    assert box.connected


def test_state_is_acknowledged_and_shown():
    box = connected_box()
    box.feed(host(2, "STATE", 3, 9, "1E90FF", 2, 0, 1) + host(3, "STATE", 3, 9, "1E90FF", 2, 0, 1).replace(b"\n", b"\r\n"), 0)
    assert [f[1:] for f in frames(box.output())] == [("ACK", ["2"]), ("ACK", ["3"])]
    assert box.display() == (3, 9, (0x1E, 0x90, 0xFF), 2, False, True)
    pixels, digit, buzzer = box.frame(0)
    assert pixels[:10] == [PAST, PAST, (0x1E, 0x90, 0xFF), scorebox.OFF, scorebox.OFF, scorebox.OFF,
                           scorebox.OFF, scorebox.OFF, LAST, scorebox.OFF]
    assert pixels[10] == (0x1E, 0x90, 0xFF) and digit == "2" and not buzzer


def test_bad_state_is_refused_and_changes_nothing():
    box = connected_box()
    before = box.display()
    for fields in [(11, 10, "FF0000", "-", 0, 0), (4, 3, "FF0000", "-", 0, 0), (1, 10, "GG0000", "-", 0, 0),
                   (1, 10, "FF0000", 4, 0, 0), (1, 10, "FF0000", "-", 2, 0), (1, 10, "FF0000", "-", 0)]:
        box.feed(host(9, "STATE", *fields), 0)
        assert frames(box.output())[0][1:] == ("NAK", ["9", "state"])
    assert box.display() == before


def test_last_round_blinks_and_alert_chirps_once():
    box = connected_box()
    box.feed(host(2, "STATE", 8, 8, "00FF00", "-", 1, 0), 1000)
    on, off = box.frame(1000), box.frame(1000 + scorebox.BLINK_MS)
    assert on[0][7] == (0, 255, 0) and off[0][7] == LAST
    assert on[0][10] == scorebox.ALERT and off[0][10] == (0, 255, 0)
    assert on[1] == "-" and on[2] is True and box.frame(1000 + scorebox.CHIRP_MS)[2] is False
    box.feed(host(3, "STATE", 8, 8, "00FF00", 1, 1, 0), 1200)  # still alerting: no new chirp
    assert box.frame(1200)[2] is False


def test_die_button_is_debounced_and_resent_until_acknowledged():
    box = connected_box()
    for t, level in [(100, True), (102, False), (104, True), (200, False), (300, True), (400, False)]:
        box.button(level, t)
    sent = frames(box.output())
    assert [f[1] for f in sent] == ["DIE", "DIE"]
    first, second = sent[0][0], sent[1][0]
    box.feed(host(4, "ACK", first), 400)  # acknowledging the first does not stop the second
    box.tick(900)
    box.tick(1400)
    box.tick(1900)
    box.tick(2400)
    resent = frames(box.output())
    assert [f[0] for f in resent] == [second, second]  # 3 sends in all, same number
    assert "never acknowledged" in box.problems[-1]


def test_die_without_a_host_is_noted_not_sent():
    box = ScoreBox(now=0)
    box.output()
    box.button(True, 100)
    assert box.output() == b"" and box.problems == ["die pressed with no host"]


def test_ten_thousand_random_bytes_change_nothing_and_lose_nothing_after():
    rng = random.Random(7)
    for connected in (False, True):
        box = connected_box() if connected else ScoreBox(now=0)
        box.output()
        before = (box.display(), box.connected)
        box.feed(bytes(rng.randrange(256) for _ in range(10_000)), 0)
        assert (box.display(), box.connected) == before
        assert all(f[1] == "NAK" for f in frames(box.output()))
        assert box.problem_count > 0
        box.feed(host(50, "HELLO", 1) + host(51, "STATE", 2, 10, "123456", 0, 0, 0), 0)
        assert box.display() == (2, 10, (0x12, 0x34, 0x56), 0, False, False)
