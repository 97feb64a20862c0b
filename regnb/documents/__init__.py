"""Reading an FDA document as its kind is written."""

__all__: list[str] = []
