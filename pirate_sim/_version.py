"""The package version, in a module of its own so the library can read it without importing the
top-level API facade (pirate_sim/__init__.py)."""

__version__ = "0.1.0"
