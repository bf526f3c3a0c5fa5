#!/usr/bin/env bash
# Install the Small World table companion on Raspberry Pi OS (bookworm), from this checkout.
# Idempotent: run it again after a `git pull` to update. --dry-run prints what it would do.
set -euo pipefail

usage() {
    cat <<'USAGE'
Usage: sudo deploy/install.sh [--dry-run] [--hostname NAME | --keep-hostname] [--prefix DIR] [--root DIR]

Installs the Debian packages the companion needs, a virtual environment that uses Debian's
numpy/OpenCV/picamera2, the `companion` system user, the systemd unit, the udev rule for the
scoring box (/dev/scorebox) and the avahi announcement, then (re)starts the service.

  --dry-run          print each step instead of doing it (needs no root, changes nothing)
  --hostname NAME    the Pi's hostname, so phones reach http://NAME.local (default: companion)
  --keep-hostname    leave the hostname alone
  --prefix DIR       where the virtual environment goes (default: /opt/companion)
  --root DIR         install into DIR as if it were / (a throwaway root: needs no root); the steps
                     that change this machine (apt-get, users, udev, hostname, systemctl) are
                     listed, not run
USAGE
}

DRY_RUN=0
ROOT=""
WANTED_HOSTNAME=companion
PREFIX=/opt/companion
SERVICE_USER=companion
PYTHON=/usr/bin/python3  # Debian's: the venv must see Debian's numpy, OpenCV and picamera2
GROUPS_NEEDED=(video gpio dialout)
# picamera2 comes from Debian and is built against Debian's numpy 1.x: a pip-installed numpy 2
# breaks it, so numpy and OpenCV come from Debian too and the venv sees them (--system-site-packages).
# libopenblas0: Debian's numpy otherwise multiplies matrices with the reference BLAS (libblas3), and the
# emblem's second look (vision/features.emblem_likeness) is two matrix products a frame: observe 23.5 -> 20.4 ms a
# 1080p frame on one core (bench/pi.py --stacks debian).
APT_PACKAGES=(python3 python3-venv python3-numpy python3-opencv libopenblas0 avahi-daemon)
# Only Raspberry Pi OS's own repository has these; elsewhere the companion does without them.
PI_ONLY_PACKAGES=(python3-picamera2 python3-lgpio)
declare -A WITHOUT=(
    [python3-picamera2]="no Pi camera (ribbon cable) here: use a USB webcam, [camera] source = \"camera:0\" in /etc/companion/config.toml"
    [python3-lgpio]="gpiozero uses its other pin factories (a Pi 5 needs lgpio for the GPIO panel)"
)
FROM_DEBIAN=(numpy opencv-python-headless)  # requirements pip must not install

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --hostname) WANTED_HOSTNAME=${2:?--hostname needs a name}; shift ;;
        --keep-hostname) WANTED_HOSTNAME="" ;;
        --prefix) PREFIX=${2:?--prefix needs a directory}; shift ;;
        --root) ROOT=${2:?--root needs a directory}; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -n "$ROOT" ]; then
    ROOT=$(realpath -m "$ROOT")
    [ "$ROOT" = / ] && ROOT=""
fi
VENV="$ROOT$PREFIX/venv"

step() { printf '==> %s\n' "$*"; }
ok() { printf '    ok: %s\n' "$*"; }
run() {
    if [ "$DRY_RUN" = 1 ]; then
        printf '    would run:'
        printf ' %q' "$@"
        printf '\n'
    else
        "$@"
    fi
}
# system: a step that changes this machine rather than files under the root (skipped with --root)
system() {
    if [ -n "$ROOT" ]; then
        printf '    skipped (--root):'
        printf ' %q' "$@"
        printf '\n'
    else
        run "$@"
    fi
}
die() { echo "install.sh: $*" >&2; exit 1; }

if [ "$DRY_RUN" = 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
    die "run as root: sudo $0 $* (or --dry-run to see the steps)"
fi
[ -f "$SRC/pyproject.toml" ] || die "no pyproject.toml in $SRC: run the script from a checkout"

# ---- Debian packages ----
step "Debian packages"
missing=()
installed() { command -v dpkg-query >/dev/null && [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" = "install ok installed" ]; }
for pkg in "${APT_PACKAGES[@]}"; do
    if installed "$pkg"; then
        ok "$pkg"
    else
        missing+=("$pkg")
    fi
done
for pkg in "${PI_ONLY_PACKAGES[@]}"; do
    if installed "$pkg"; then
        ok "$pkg"
    elif command -v apt-cache >/dev/null && apt-cache policy "$pkg" 2>/dev/null | grep -q '^ *Candidate: [0-9]'; then
        missing+=("$pkg")
    else
        echo "    without $pkg (not in this system's package lists, not Raspberry Pi OS?): ${WITHOUT[$pkg]}"
    fi
done
if [ ${#missing[@]} -gt 0 ]; then
    system apt-get update
    system env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
fi

# ---- the service user ----
step "system user $SERVICE_USER"
if id -u "$SERVICE_USER" >/dev/null 2>&1; then
    ok "$SERVICE_USER exists"
else
    system useradd --system --user-group --home-dir /var/lib/companion --shell /usr/sbin/nologin "$SERVICE_USER"
fi
for group in "${GROUPS_NEEDED[@]}"; do
    if ! getent group "$group" >/dev/null; then
        echo "    warning: no group $group on this system (not Raspberry Pi OS?); skipped" >&2
    elif id -nG "$SERVICE_USER" 2>/dev/null | tr ' ' '\n' | grep -qx "$group"; then
        ok "$SERVICE_USER in $group"
    else
        system usermod -aG "$group" "$SERVICE_USER"
    fi
done

# ---- the virtual environment ----
step "virtual environment $VENV (with the system's numpy, OpenCV and picamera2)"
if [ -x "$VENV/bin/python" ] && grep -qx 'include-system-site-packages = true' "$VENV/pyvenv.cfg" 2>/dev/null; then
    ok "$VENV exists"
else
    if [ -e "$VENV" ]; then run rm -rf "$VENV"; fi
    run "$PYTHON" -m venv --system-site-packages "$VENV"
fi
# The project's requirements except those Debian provides; read from pyproject.toml.
mapfile -t REQUIREMENTS < <("$PYTHON" - "$SRC/pyproject.toml" "${FROM_DEBIAN[@]}" <<'PY'
import re, sys, tomllib
skip = set(sys.argv[2:])
with open(sys.argv[1], "rb") as f:
    deps = tomllib.load(f)["project"]["dependencies"]
for dep in deps:
    if re.split(r"[<>=!~\[; ]", dep, maxsplit=1)[0].lower() not in skip:
        print(dep)
PY
)
run "$VENV/bin/pip" install --quiet "${REQUIREMENTS[@]}"
run "$VENV/bin/pip" install --quiet --no-deps --upgrade "$SRC"
run "$VENV/bin/python" -c "import numpy, cv2, sys; sys.exit(0 if numpy.__file__.startswith('/usr/lib/python3/dist-packages') else 'numpy does not come from Debian: ' + numpy.__file__)"

# ---- files for systemd, udev and avahi ----
changed=0
install_file() {  # install_file SOURCE TARGET: copy when different
    if [ -f "$2" ] && cmp -s "$1" "$2"; then
        ok "$2"
    else
        run install -D -m 0644 "$1" "$2"
        changed=1
    fi
}
step "service, udev rule and avahi announcement"
install_file "$SRC/deploy/companion.service" "$ROOT/etc/systemd/system/companion.service"
install_file "$SRC/deploy/99-companion-scorebox.rules" "$ROOT/etc/udev/rules.d/99-companion-scorebox.rules"
install_file "$SRC/deploy/companion.avahi.service" "$ROOT/etc/avahi/services/companion.service"
system udevadm control --reload-rules
system udevadm trigger --subsystem-match=tty

# ---- hostname ----
if [ -n "$WANTED_HOSTNAME" ]; then
    step "hostname $WANTED_HOSTNAME (http://$WANTED_HOSTNAME.local)"
    if [ "$(hostname)" = "$WANTED_HOSTNAME" ]; then
        ok "hostname is $WANTED_HOSTNAME"
    elif command -v raspi-config >/dev/null; then
        system raspi-config nonint do_hostname "$WANTED_HOSTNAME"
    else
        system hostnamectl set-hostname "$WANTED_HOSTNAME"
        system sed -i "s/^127\.0\.1\.1.*/127.0.1.1\t$WANTED_HOSTNAME/" /etc/hosts
    fi
fi

# ---- start ----
step "start"
system systemctl daemon-reload
system systemctl enable avahi-daemon companion
system systemctl restart avahi-daemon
system systemctl restart companion
step "done: logs with 'journalctl -u companion -f', checks with '$VENV/bin/companion doctor'"
[ "$changed" = 1 ] && [ "$DRY_RUN" = 0 ] && [ -z "$ROOT" ] && echo "    (files changed: a reboot makes group and hostname changes take effect everywhere)"
exit 0
