import os
import sys

# MicroPython's hardware modules, for firmware/hw.py under CPython.
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "stubs"))
