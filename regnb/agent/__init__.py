"""The research agent: plans searches, reads pages, writes an extractive answer whose every
citation is checked against the page it names."""

__all__: list[str] = []
