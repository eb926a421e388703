"""Following a game whose save becomes a ZIP no reader opens (an entry of ZIP version 6.4, or
encrypted): the followed position stays, the status bar names the file and the entry, and no
exception leaves the follower's Qt slot."""
from __future__ import annotations

import pytest
from test_app_follow import followed, pieces, write  # noqa: F401  (the followed game)
from test_hostile_archives import MARKS, zip_entry_marked

from app.night.vasl.follow import MAX_RETRIES


@pytest.mark.parametrize("mark", MARKS)
def test_a_save_no_reader_opens_is_told_by_name(followed, mark):  # noqa: F811
    window, follower, path = followed
    before = window.document.scenario
    zip_entry_marked(write(path, pieces("K7"), 2 * 10**18), "savedGame", **MARKS[mark])
    for _ in range(MAX_RETRIES + 1):
        assert follower.check() is False            # raised nothing out of the slot
    said = window.statusBar().currentMessage()
    assert said.startswith(f"Cannot follow {path}: {path}: savedGame: "), said
    assert ("6.4" if mark == "version 6.4" else "encrypted") in said
    assert window.document.scenario is before
