"""Garbage between frames never costs a good frame, on either side of the link."""
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.hardware.session import HostSession
from companion.inputs import RollRequested
from firmware import proto
from firmware.scorebox import ScoreBox

garbage = st.binary(max_size=300)
states = st.tuples(st.integers(1, 10), st.integers(0, 255), st.sampled_from(["-", 0, 1, 2, 3]), st.booleans())


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(garbage, states), min_size=1, max_size=8), garbage)
def test_box_applies_every_state_whatever_garbage_comes_between(pieces, tail):
    box = ScoreBox(0)
    box.feed(proto.encode(1, "HELLO", (1,)), 0)
    stream = b""
    for n, (junk, (rounds, red, die, alert)) in enumerate(pieces):
        stream += junk + proto.encode(n + 2, "STATE", (rounds, rounds, "%02X0000" % red, die, int(alert), 0))
    box.feed(stream + tail, 0)
    rounds, red, die, alert = pieces[-1][1]
    assert box.display() == (rounds, rounds, (red, 0, 0), None if die == "-" else die, alert, False)
    acks = [proto.decode(line)[2][0] for line, p in proto.LineSplitter().feed(box.output()) if p is None
            and proto.decode(line)[1] == "ACK"]
    assert acks == [str(n + 2) for n in range(len(pieces))]


@settings(max_examples=60, deadline=None)
@given(st.lists(garbage, min_size=1, max_size=8), garbage)
def test_host_counts_every_die_press_exactly_once(junks, tail):
    inputs = []
    host = HostSession(inputs.append)
    host.start(0.0)
    stream = proto.encode(1, "HELLO", (1, "0.1.0"))
    for n, junk in enumerate(junks):
        frame = proto.encode(n + 2, "DIE")
        stream += junk + frame + frame.replace(b"\n", b"\r\n")  # each sent twice, the box's resend
    host.feed(stream + tail, 0.0)
    assert host.ready
    assert inputs == [RollRequested("scoring-box")] * len(junks)
