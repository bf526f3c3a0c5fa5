#!/usr/bin/env bash
# Copy the scoring box firmware onto a Raspberry Pi Pico that runs MicroPython, with mpremote.
# The firmware goes into the package folder :firmware/ and a two-line :main.py starts it at boot.
set -euo pipefail

usage() {
    cat <<'USAGE'
Usage: deploy/flash-firmware.sh [--device PORT] [--dry-run]

  --device PORT   the Pico's serial port (default: mpremote finds it; /dev/scorebox once installed)
  --dry-run       print the mpremote commands instead of running them

First put MicroPython on the Pico (hold BOOTSEL, plug it in, copy the RPI_PI_PICO .uf2 file onto
the RPI-RP2 drive). Stop the companion first if it runs: sudo systemctl stop companion
Needs mpremote: pip install mpremote
USAGE
}

# What runs on the Pico; sim.py is the host-side simulator and stays behind.
FILES=(__init__.py proto.py scorebox.py hw.py)
DEVICE=auto
DRY_RUN=0
MPREMOTE=${MPREMOTE:-mpremote}

while [ $# -gt 0 ]; do
    case "$1" in
        --device) DEVICE=${2:?--device needs a port}; shift ;;
        --dry-run) DRY_RUN=1 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "flash-firmware.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../firmware" && pwd)

run() {
    if [ "$DRY_RUN" = 1 ]; then
        printf 'would run:'
        printf ' %q' "$@"
        printf '\n'
    else
        "$@"
    fi
}

if [ "$DRY_RUN" = 0 ]; then
    command -v "$MPREMOTE" >/dev/null || { echo "flash-firmware.sh: mpremote not found: pip install mpremote" >&2; exit 1; }
    if command -v systemctl >/dev/null && systemctl is-active --quiet companion 2>/dev/null; then
        echo "flash-firmware.sh: the companion service holds the port: sudo systemctl stop companion, then flash" >&2
        exit 1
    fi
fi

args=(connect "$DEVICE" exec "import os
try:
    os.mkdir('firmware')
except OSError:
    pass")
for f in "${FILES[@]}"; do
    args+=(+ cp "$SRC/$f" ":firmware/$f")
done
args+=(+ cp "$SRC/main.py" ":main.py" + reset)
run "$MPREMOTE" "${args[@]}"
[ "$DRY_RUN" = 1 ] || echo "flashed ${#FILES[@]} files and main.py; the box blinks blue until the companion says hello"
