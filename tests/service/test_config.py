import pytest

from companion.service import config as C


def write(tmp_path, text):
    p = tmp_path / "c.toml"
    p.write_text(text)
    return p


def test_defaults_work_without_a_file(tmp_path, monkeypatch):
    monkeypatch.setattr(C, "SYSTEM_CONFIG", tmp_path / "absent.toml")
    cfg = C.load(None, env={})
    assert cfg.service.port == 8000 and cfg.source == "defaults"
    assert not cfg.hardware.gpio.enabled and cfg.demo.map == "4p"


def test_system_config_is_used_when_it_exists(tmp_path, monkeypatch):
    monkeypatch.setattr(C, "SYSTEM_CONFIG", write(tmp_path, "[service]\nport = 80\n"))
    assert C.load(None, env={}).service.port == 80


def test_port_from_the_environment(tmp_path):
    cfg = C.load(write(tmp_path, "[service]\nport = 81\n"), env={"COMPANION_PORT": "80"})
    assert cfg.service.port == 80
    with pytest.raises(C.ConfigError, match="COMPANION_PORT"):
        C.load(None, env={"COMPANION_PORT": "eighty"})


@pytest.mark.parametrize("text, key", [
    ("[service]\nprot = 1\n", "[service] prot: unknown key"),
    ("[service]\nport = 'x'\n", "[service] port: expected int"),
    ("[service]\nport = 70000\n", "[service] port: expected 0-65535"),
    ("[demo]\npace_s = -1\n", "[demo] pace_s"),
    ("[demo]\nmap = 'moon'\n", "[demo] map"),
    ("[servce]\n", "unknown table [servce]"),
    ("[gpio]\nroll_button = 99\n", "[gpio] roll_button"),
    ("[scoring_box]\nbaud = 1\n", "[scoring_box] baud"),
    ("[service]\ntable_code = 'abc'\n", "[service] table_code"),
    ("[service]\nallowed_hosts = 'x'\n", "[service] allowed_hosts"),
    ("not toml [", "not valid TOML"),
])
def test_bad_settings_are_refused_naming_the_key(tmp_path, text, key):
    path = write(tmp_path, text)
    with pytest.raises(C.ConfigError) as info:
        C.load(path, env={})
    message = str(info.value)
    assert key in message and str(path) in message and "\n" not in message


def test_a_full_file(tmp_path):
    cfg = C.load(write(tmp_path, """
[service]
host = "127.0.0.1"
port = 8080
allowed_hosts = ["table.example"]
keepalive_s = 10
[demo]
pace_s = 0.5
[gpio]
enabled = false
"""), env={})
    assert cfg.service.allowed_hosts == ("table.example",) and cfg.demo.pace_s == 0.5
    assert cfg.service.keepalive_s == 10.0


def test_missing_file(tmp_path):
    with pytest.raises(C.ConfigError, match="cannot read"):
        C.load(tmp_path / "nope.toml", env={})
