"""What every Office file regnb writes shares: the same content and clock give the same bytes."""

from __future__ import annotations

import datetime as dt
import io
import zipfile

__all__ = ["naive_utc", "stable_zip"]


def stable_zip(data: bytes, when: dt.datetime) -> bytes:
    """The same zip with every member stamped `when`, so equal content gives equal bytes."""
    stamp = max(when.timetuple()[:6], (1980, 1, 1, 0, 0, 0))  # zip has no earlier dates
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            member = zipfile.ZipInfo(info.filename, date_time=stamp)
            member.compress_type = zipfile.ZIP_DEFLATED
            dst.writestr(member, src.read(info))
    return out.getvalue()


def naive_utc(when: dt.datetime) -> dt.datetime:
    """`when` in UTC without tzinfo, as the Office core properties store it."""
    if when.tzinfo is not None:
        when = when.astimezone(dt.UTC).replace(tzinfo=None)
    return when
