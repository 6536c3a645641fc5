"""What the documentation's console blocks promise, checked against real output
(shared by tests/test_docs.py and tests/test_chapters.py)."""

from __future__ import annotations

import re


def shown_in(expected: list[str], actual: list[str]) -> str | None:
    """None when every expected line appears in ``actual`` in order (``…`` inside a line
    stands for any text, a line of ``…`` alone for lines left out), else the first that does not."""
    pos = 0
    for line in expected:
        if line.strip() in ("", "…"):
            continue
        pattern = re.compile(".*".join(re.escape(part.strip()) for part in line.split("…")))
        while pos < len(actual) and not pattern.search(actual[pos]):
            pos += 1
        if pos == len(actual):
            return line
        pos += 1
    return None
