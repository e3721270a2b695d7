"""meeple: three strategy board games behind one engine protocol."""

__version__ = "0.1.0"
