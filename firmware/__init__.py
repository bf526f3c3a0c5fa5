"""The scoring box firmware (MicroPython on a Raspberry Pi Pico); see PROTOCOL.md."""
