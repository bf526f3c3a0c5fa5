from companion.hardware.press import PressTracker


def test_bounces_inside_the_window_make_one_press():
    t = PressTracker(debounce_s=0.03)
    events = []
    for i, level in enumerate([True, False, True, False, True]):
        events += t.edge(level, 1.0 + i * 0.002)
    assert events == ["press"]
    assert t.pressed


def test_a_level_that_settles_during_the_window_is_picked_up_by_poll():
    t = PressTracker(debounce_s=0.03)
    assert t.edge(True, 1.0) == ["press"]
    assert t.edge(False, 1.01) == []  # a genuine quick tap: release ignored for now
    assert t.pressed
    assert t.poll(1.05) == [] and not t.pressed
    assert t.edge(True, 1.2) == ["press"]


def test_hold_fires_once_when_reached_and_not_again_at_release():
    t = PressTracker(debounce_s=0.03, hold_s=2.0)
    assert t.edge(True, 0.0) == []
    assert t.poll(1.99) == []
    assert t.poll(2.0) == ["hold"]
    assert t.poll(3.0) == []
    assert t.edge(False, 3.5) == []


def test_hold_is_seen_at_release_without_polls_and_short_holds_say_so():
    t = PressTracker(debounce_s=0.03, hold_s=2.0)
    t.edge(True, 0.0)
    assert t.edge(False, 2.5) == ["hold"]
    t.edge(True, 5.0)
    assert t.edge(False, 6.0) == ["short"]
