"""Copied to the Pico's root as main.py by deploy/flash-firmware.sh: start the scoring box."""
from firmware import hw

hw.run()
