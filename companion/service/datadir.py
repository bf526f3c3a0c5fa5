"""The data folder (the store with the secret key and the table code, calibration, house islands):
the server's own. Created 0700, its files 0600, whatever the umask; a path that is not a usable
folder is one line naming it."""
from __future__ import annotations

import os
import stat
from pathlib import Path

PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600


class DataFolderError(OSError):
    """The data folder cannot be used; the message is one line."""


def prepare(path: Path) -> Path:
    """``path`` as a private folder (made if missing), its files made private too."""
    if len(str(path)) > 1024:
        raise DataFolderError(f"data folder {str(path)[:60]}...: the path is too long")
    try:
        info = path.stat()
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise DataFolderError(f"data folder {path}: {exc.strerror}") from None
    if info is not None and not stat.S_ISDIR(info.st_mode):
        raise DataFolderError(f"data folder {path}: a file is there, not a folder (give a folder for --data "
                              "or [service] data_dir)")
    try:
        path.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)
        os.chmod(path, PRIVATE_DIR)
        for child in path.iterdir():
            if child.is_file() and not child.is_symlink():
                os.chmod(child, PRIVATE_FILE)
    except OSError as exc:
        raise DataFolderError(f"data folder {path}: {exc.strerror or exc}") from None
    return path


def private_file(path: Path) -> Path:
    """Create ``path`` (if missing) readable by its owner only, before anything is written to it."""
    fd = os.open(path, os.O_CREAT | os.O_WRONLY, PRIVATE_FILE)
    os.close(fd)
    os.chmod(path, PRIVATE_FILE)
    return path


def island_folder(data: Path) -> Path:
    """Where the table's own islands live (``companion islands new`` into it): DATA/islands."""
    return data / "islands"
