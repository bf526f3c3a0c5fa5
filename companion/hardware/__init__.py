"""The table's hardware: the GPIO panel, the USB scoring box link, their settings and the display snapshot.

Every part takes its I/O from outside (a gpiozero pin factory, a pyserial URL, a clock) so that
tests drive the real code with mock pins and pseudo-terminals.
"""
