"""The scoring box link under garbage, both ends: the companion's host session and the firmware's
own logic (as MicroPython runs it) never raise, never grow without bound, and never obey garbage."""
import logging
import random

from hypothesis import HealthCheck, given, settings, strategies as st

from companion.hardware.display import TableDisplay
from companion.hardware.session import HostSession
from firmware import proto
from firmware.scorebox import ScoreBox

KINDS = ["HELLO", "STATE", "ACK", "NAK", "DIE", "X", ""]
FIELD = st.one_of(st.sampled_from(["1", "0", "-", "ff00aa", "99", "3", "", "x" * 70]), st.text(max_size=8))


def frames():
    """Frames that are nearly right (good checksums on wrong content) or torn, with junk between."""
    good = st.builds(lambda seq, kind, fields: proto.encode(seq, kind, fields),
                     st.integers(0, 10 ** 6), st.sampled_from(KINDS), st.lists(FIELD.filter(str.isascii), max_size=7))
    return st.lists(st.one_of(good, st.binary(max_size=80), good.map(lambda f: f.replace(b"\n", b"\r\n")),
                              good.map(lambda f: f[:-3])), max_size=40)


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(chunks=frames())
def test_the_host_never_raises_nor_obeys_garbage(chunks):
    inputs = []
    host = HostSession(inputs.append)
    host.start(0.0)
    host.show(TableDisplay(round=1), 0.0)
    now = 0.0
    for chunk in chunks:
        host.feed(chunk, now)
        host.tick(now)
        now += 0.05
    assert len(host.output()) < 50_000
    assert all(type(i).__name__ == "RollRequested" for i in inputs)  # only a well-formed DIE rolls


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(chunks=frames(), presses=st.lists(st.booleans(), max_size=40))
def test_the_firmware_never_raises_and_keeps_little(chunks, presses):
    box = ScoreBox(0)
    ms = 0
    for k, chunk in enumerate(chunks):
        box.feed(chunk, ms)
        box.button(presses[k % len(presses)] if presses else False, ms)
        box.tick(ms)
        pixels, digit, _ = box.frame(ms)
        assert len(pixels) == 11 and digit in "0123- "
        ms += 300
    assert len(box.output()) < 50_000 and len(box.problems) <= 64


def test_a_box_that_never_acknowledges_is_not_a_flood(caplog):
    host = HostSession(lambda i: None)
    host.start(0.0)
    host.feed(proto.encode(1, "HELLO", [proto.VERSION, "fw"]), 0.0)
    host.show(TableDisplay(round=1), 0.0)
    rng = random.Random(3)
    with caplog.at_level(logging.DEBUG, logger="companion.hardware.scoring_box"):
        now = 0.0
        for _ in range(2400):  # 20 minutes, the state never acknowledged, NAKs and wrong HELLOs
            host.feed(proto.encode(rng.randrange(99), rng.choice(["NAK", "HELLO"]), ["7", "x"]), now)
            host.tick(now)
            now += 0.5
    loud = [r for r in caplog.records if r.levelno >= logging.INFO]
    assert len(loud) <= 20 * 7, len(loud)
