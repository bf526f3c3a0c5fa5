"""Mutated configuration files: a Config or one ConfigError line naming the file, never a traceback."""
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.service import config

GOOD = b"""[service]
port = 8000
data_dir = "/tmp/companion-data"
allowed_hosts = ["table.lan"]
keepalive_s = 15.0

[demo]
ruleset = "smallworld"
map = "2p"
players = 2
pace_s = 1.5

[camera]
source = "simulated:{map}:3"
retry_s = 5.0

[scoring_box]
enabled = false
"""

VALUES = [b'"' + b"x" * 5000 + b'"', b"nan", b"inf", b"-inf", b"9223372036854775807", b"-1", b"0", b"1e308",
          b'"/dev/zero"', b'"/etc/passwd"', b"[1, [2, [3]]]", b"{a = 1}", b'"\\u0000"', b'""', b"true",
          b'"' + b"sample-large-1+" * 300 + b'"', b"[" + b'"a",' * 200 + b"]", b"[" * 400 + b"]" * 400,
          b'"camera:7"', b'"simulated:' + b"9" * 5000 + b'"', b"\xff\xfe", b'"\xc3\x28"']


def one_line(path, capsys=None):
    try:
        got = config.load(path, env={})
    except config.ConfigError as exc:
        message = str(exc)
        assert "\n" not in message and message.startswith(str(path)), message
        assert len(message) < 700, message
        return None
    return got


@settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(line=st.integers(0, 40), value=st.sampled_from(VALUES), junk=st.binary(max_size=8), where=st.integers(0, 999))
def test_any_mutated_file_is_one_line(tmp_path_factory, line, value, junk, where):
    lines = GOOD.split(b"\n")
    k = line % len(lines)
    if b"=" in lines[k]:
        lines[k] = lines[k].split(b"=")[0] + b"= " + value
    text = b"\n".join(lines)
    cut = where % len(text)
    path = tmp_path_factory.mktemp("c") / "c.toml"
    path.write_bytes(text[:cut] + junk + text[cut:] if where % 3 == 0 else text)
    one_line(path)


@pytest.mark.parametrize("text, words", [
    (b"[service]\nport = 8000 # \xff\n", "not UTF-8"),
    (b"[demo]\nmap = \"" + b"x" * 5000 + b"\"\n", "at most 1024 characters"),
    (b"[demo]\npace_s = nan\n", "expected"),
    (b"[service]\nkeepalive_s = inf\n", "expected"),
    (b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n", "not valid TOML"),
])
def test_the_causes_seen_are_one_line(tmp_path, text, words):
    path = tmp_path / "c.toml"
    path.write_bytes(text)
    with pytest.raises(config.ConfigError) as caught:
        config.load(path, env={})
    assert words in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("path", ["/dev/zero", "/tmp", "/nonexistent.toml"])
def test_only_a_regular_file_is_read(path):
    assert one_line(path) is None


def test_serve_with_a_non_utf8_config_is_one_line(tmp_path):
    path = tmp_path / "c.toml"
    path.write_bytes(b"[service]\nport = 8000 # \xff\n")
    r = subprocess.run([sys.executable, "-m", "companion", "serve", "--config", str(path)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "not UTF-8" in r.stderr, r.stderr
