"""Errors a caller of the vision package can act on; each is a ValueError with a one-line message."""


class VisionError(ValueError):
    """Base of every domain error raised by the vision stages."""


class GeometryError(VisionError):
    """A board geometry file that cannot be used."""


class SourceError(VisionError):
    """A frame source or image file that cannot be opened or read."""


class RegistrationError(VisionError):
    """The board could not be registered in a frame (markers missing, degenerate homography)."""


class ModelError(VisionError):
    """An enrollment folder or a token model that cannot be used."""
