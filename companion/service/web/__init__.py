"""The Flask dashboard: application factory and one blueprint per area."""
from .app import create_app

__all__ = ["create_app"]
