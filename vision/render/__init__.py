"""The synthetic renderer: boards, tokens, hands and enrollment photos under a simulated camera."""
from .designs import TokenDesign, designs, sprite
from .scene import TIERS, Placed, Realism, Session, Truth, enrollment_samples, random_state

__all__ = ["TIERS", "Placed", "Realism", "Session", "Truth", "TokenDesign", "designs", "enrollment_samples",
           "random_state", "sprite"]
