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
    ("[camera]\nsource = ''\n", "[camera] source: empty"),
    ("[camera]\nsource = 'simulated:moon'\n", "[camera] source: unknown map 'moon'"),
    ("[camera]\nsource = 'simulated:2p:three'\n", "[camera] source: the seed"),
    ("[camera]\nsource = 'simulated:2p:3:foggy'\n", "[camera] source: unknown tier 'foggy'"),
    ("[camera]\nsource = 'camera:front'\n", "[camera] source: expected camera:N"),
    ("[camera]\nload_calibration = 'yes'\n", "[camera] load_calibration: expected bool"),
    ("[camera]\ncalibration_dir = 3\n", "[camera] calibration_dir: expected str"),
    ("[camera]\ncalibraton_dir = '/x'\n", "[camera] calibraton_dir: unknown key"),
    ("[camera]\nretry_s = 0\n", "[camera] retry_s: expected 0.01-600.0"),
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


def test_camera_table(tmp_path):
    cfg = C.from_mapping({})
    assert cfg.camera.source == "simulated:{map}:3" and not cfg.camera.load_calibration
    assert cfg.camera.calibration_path(tmp_path) == tmp_path / "calibration"
    cfg = C.load(write(tmp_path, f"""
[camera]
source = "picamera"
calibration_dir = "{tmp_path / 'cal'}"
load_calibration = true
retry_s = 2
"""), env={})
    assert cfg.camera.source == "picamera" and cfg.camera.load_calibration and cfg.camera.retry_s == 2.0
    assert cfg.camera.calibration_path(tmp_path / "data") == tmp_path / "cal"
    for good in ("simulated", "simulated:4p", "simulated:{map}:7:hard", "camera:0", "/videos/table.mp4"):
        assert C.camera_source_problem(good) is None, good


def test_calibration_dir_must_be_a_folder(tmp_path):
    (tmp_path / "afile").write_text("")
    path = write(tmp_path, f'[camera]\ncalibration_dir = "{tmp_path / "afile"}"\n')
    with pytest.raises(C.ConfigError) as info:
        C.load(path, env={})
    assert str(info.value) == f"{path}: [camera] calibration_dir: {tmp_path / 'afile'} is a file, not a folder"


def test_simulated_tiers_are_the_renderers():
    from vision.render import TIERS
    assert set(C.SIMULATED_TIERS) == set(TIERS)
