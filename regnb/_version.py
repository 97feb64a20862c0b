"""The package version, in one place: `regnb.__version__`, the CLI's --version and the client's
user agent read it."""

__all__ = ["__version__"]

__version__ = "0.1.0"
