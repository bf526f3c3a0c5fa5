"""Board data: the four official Small World boards and the loader that validates any map file."""
from .model import Board, Region, TERRAINS, WATER, SYMBOLS
from .loader import MapError, load, load_file, builtin_names, parse

__all__ = ["Board", "Region", "TERRAINS", "WATER", "SYMBOLS", "MapError", "load", "load_file",
           "builtin_names", "parse"]
