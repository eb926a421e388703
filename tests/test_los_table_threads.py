"""The LOS tables' background builds end before the interpreter does: at exit every build thread
is stopped and waited for, also one whose table left the cache meanwhile (a daemon thread killed
inside numpy while the interpreter shuts down aborts the process)."""
from __future__ import annotations

import threading

from engine import api
from engine.los import CROSSINGS
from engine.los import ground as los_ground


def test_exit_waits_for_a_build_whose_table_left_the_cache(monkeypatch):
    monkeypatch.setattr(los_ground, "_EXITING", threading.Event())     # this test's own exit
    entered = threading.Event()

    class HeldCrossings:
        """The shared crossings, held at the build's first batch until the exit is signalled."""
        def ids(self, dq, dr):
            entered.set()
            los_ground._EXITING.wait()
            return CROSSINGS.ids(dq, dr)

    monkeypatch.setattr(los_ground, "CROSSINGS", HeldCrossings())
    los_ground._ground.cache_clear()
    s = api.night.load_scenario(api.assets_dir() / "scenarios" / "default.json")
    table = los_ground.start(s.map)
    entered.wait()
    build = table._thread
    los_ground._ground.cache_clear()            # other maps opened: it left the cache
    los_ground._stop_builds()                   # what runs at exit
    assert not build.is_alive()
    assert not table.done                       # stopped, not finished
    los_ground.start(s.map)                     # nothing starts once the exit began
    assert all(t.name != "starshell-los-table" for t in threading.enumerate())
