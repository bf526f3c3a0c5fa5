"""Hypothesis strategies for what an attacker or a broken device puts where a value is expected."""
from hypothesis import strategies as st

NASTY_STRINGS = ["", " ", "x" * 5000, "/dev/zero", "/etc/passwd", "/tmp", "../../etc/passwd", "\ud800", "\x00",
                 "sample-large-1+/dev/zero", "2p", "conquer", "ratmen", "9" * 4400, "-1", "1e999", "NaN",
                 "<script>alert(1)</script>", "\u202e", "🎲", "warcraft", "smallworld"]
NASTY_NUMBERS = [0, -1, 1, 3, 7, 101, 2 ** 31, 2 ** 63, -(2 ** 63), 10 ** 14, 10 ** 30, 1.5, -0.0, 1e300]


def hostile_values(max_leaves: int = 6):
    """A JSON value of any shape: wrong types, out-of-range numbers, deep nesting, huge strings."""
    leaf = st.one_of(st.none(), st.booleans(), st.sampled_from(NASTY_NUMBERS), st.integers(),
                     st.sampled_from(NASTY_STRINGS), st.text(max_size=20))
    nested = st.recursive(leaf, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                         st.dictionaries(st.text(max_size=5), inner, max_size=3)),
                          max_leaves=max_leaves)
    deep = st.integers(30, 400).map(lambda n: _nest(n))
    return st.one_of(nested, deep, st.sampled_from([{"3": -1}, {"x": 2}, {"99999": 1}, [1, 2, 3], {"act": "pick"}]))


def _nest(n: int):
    value: object = 1
    for k in range(n):
        value = [value] if k % 2 else {"a": value}
    return value
