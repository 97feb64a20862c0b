"""How results look to a person: HTML for notebooks (`html`), answers' markdown as HTML
(`markdown`), tables for colleagues (`export`, written by the one Excel writer in `excel`), plots
(`plots`), and the dataset names they all show (`names`), taken from the catalog of the engine
that made the result, so that a dataset a corpus adds shows by its name.

Nothing is imported here: each module loads what it needs (pandas, openpyxl, matplotlib) itself.
"""

__all__: list[str] = []
