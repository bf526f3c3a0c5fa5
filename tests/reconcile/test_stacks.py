"""What the counts read on a race's regions say about the tokens under its stacks (``stacks``)."""
from companion.reconcile.corrections import _as_read
from companion.reconcile.stacks import likelihood, spread


def test_the_tokens_no_sight_shows_lie_under_the_stack_read_full_not_on_a_region_read_alone_sight_after_sight():
    # eleven sights read 3 tokens on region 27 and two read 4; region 11 read one token in 16 sights:
    # the fifth token lies under region 27's stack, not beside the lone token of region 11
    given = {11: 2, 27: 4, 33: 1}
    readings = {27: {3: list(range(9)), 4: [20, 21]}, 11: {1: list(range(16))}, 33: {1: list(range(16))}}
    assert _as_read(given, {11: 1, 27: 1, 33: 1}, readings, room={11: 16, 27: 7, 33: 9}) == {11: 1, 27: 5, 33: 1}


def test_the_likelihood_of_a_count_falls_with_each_sight_that_shows_a_lone_token():
    one_sight, many = {1: 1}, {1: 10}
    assert likelihood(many, 2) < likelihood(one_sight, 2) < likelihood(one_sight, 1) == 0.0
    # a region showing all it can hold side by side tells nothing against more under it
    assert likelihood({2: 5}, 6, room=2) > likelihood({2: 5}, 6)


def test_a_perfect_camera_keeps_the_counts_it_reads():
    readings = {4: {8: [1, 2]}, 9: {1: [1, 2]}, 13: {3: [1, 2]}}
    assert spread({4: 1, 9: 1, 13: 1}, 9, readings) == {4: 8, 9: 1, 13: 3}
