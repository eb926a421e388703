"""The Windows branch of the owner files' lock (engine.file_writes: ``msvcrt.locking``), run on
any system: the platform check says Windows and ``msvcrt`` is a stand-in with Windows' rules
(a byte range locked by one handle: another handle's lock is refused, OSError; unlocking a range
the handle does not hold is refused too; the range starts at the handle's position).  Another
Starshell process is another handle here, as Windows counts locks."""
from __future__ import annotations

import errno
import os
import sys
import types

import pytest

from engine import file_writes
from engine.file_writes import hold_owner, owner_held, release_owner


class WindowsLocks(types.ModuleType):
    """``msvcrt`` as far as locking goes, with Windows' rules (per handle, from its position)."""
    LK_UNLCK, LK_LOCK, LK_NBLCK, LK_RLCK, LK_NBRLCK = 0, 1, 2, 3, 4

    def __init__(self):
        super().__init__("msvcrt")
        self.held: dict[tuple, int] = {}          # (file, first byte, bytes) -> handle
        self.calls: list[tuple] = []

    def locking(self, fd: int, mode: int, nbytes: int) -> None:
        st = os.fstat(fd)
        at = os.lseek(fd, 0, os.SEEK_CUR)
        region = ((st.st_dev, st.st_ino), at, nbytes)
        self.calls.append((mode, at, nbytes))
        if mode == self.LK_NBLCK:
            if region in self.held:              # held by any handle, this one included
                raise OSError(errno.EACCES, "Permission denied")
            self.held[region] = fd
        elif mode == self.LK_UNLCK:
            if self.held.get(region) != fd:
                raise OSError(errno.EACCES, "Permission denied")
            del self.held[region]
        else:
            raise AssertionError(f"a blocking lock mode {mode}: the window would hang")


@pytest.fixture
def windows(monkeypatch):
    """The stand-in ``msvcrt`` imported, and the owner files' module told it runs on Windows
    (its own ``os`` says "nt"; the rest of the process, pytest's paths included, is left as it
    is)."""
    locks = WindowsLocks()
    monkeypatch.setitem(sys.modules, "msvcrt", locks)
    on_windows = types.ModuleType("os")
    on_windows.__dict__.update(vars(os))
    on_windows.name = "nt"
    monkeypatch.setattr(file_writes, "os", on_windows)
    return locks


def test_an_owner_file_is_held_until_released_and_then_free(tmp_path, windows):
    owner = tmp_path / "owner"
    fd = hold_owner(owner, "4242")
    assert fd is not None and windows.calls == [(windows.LK_NBLCK, 0, 1)]
    assert list(windows.held.values()) == [fd]
    os.lseek(fd, 0, os.SEEK_SET)
    assert os.read(fd, 100) == b"4242"           # who holds it, written after the lock
    assert owner_held(owner)                      # another process asks: held
    assert hold_owner(owner, "99") is None        # another process cannot take it
    assert list(windows.held.values()) == [fd]    # the asking left no lock behind
    release_owner(fd)
    assert windows.held == {}                     # the byte it locked is the byte it unlocks
    assert not owner_held(owner) and windows.held == {}
    again = hold_owner(owner, "7")
    assert again is not None and owner.read_text() == "7"
    release_owner(again)
    assert windows.held == {}


def test_an_owner_file_nobody_holds_is_free_whatever_it_says(tmp_path, windows):
    owner = tmp_path / "owner"
    owner.write_text("1")                         # pid 1: a process of another program
    assert not owner_held(owner) and windows.held == {}
    assert not owner_held(tmp_path / "none")      # no owner file: nobody


def test_recovery_offers_no_slot_another_process_holds_until_it_lets_go(tmp_path, windows):
    """The app's recovery folder on Windows: a slot whose owner file another Starshell holds
    is not offered; once it lets go (or dies: Windows frees its locks), it is; this process's
    own claim holds its slot against the others."""
    recovery = pytest.importorskip("app.recovery")
    theirs, ours = tmp_path / "4242-1", tmp_path / "77-1"
    theirs.mkdir()
    (theirs / recovery.RECOVERY_NAME).write_text("{}")
    fd = hold_owner(theirs / recovery.OWNER, "4242")        # another process, still running
    assert fd is not None
    assert recovery.left_behind(tmp_path) == []
    release_owner(fd)                                       # it has ended
    assert recovery.left_behind(tmp_path) == [theirs / recovery.RECOVERY_NAME]
    recovery.claim(ours)
    try:
        assert owner_held(ours / recovery.OWNER)            # as the others see it
        assert hold_owner(ours / recovery.OWNER, "99") is None
    finally:
        recovery.discard(tmp_path, ours)                    # its lock let go, the slot gone
    assert windows.held == {} and not ours.exists()
