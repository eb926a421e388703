"""The night planner in the window: the best starshell, the threat map and the dark way
(rules.md 10; the engine's ``api.night.advise``, ``threat`` and ``route``).

The ``Planner`` asks the engine through the app's job runner (``Document.run``), never on the
window's thread, and again whenever the position changes; each question is the engine's steps
(``advise_steps``, ``threat_steps``, ``route_steps``): the runner says their progress in the
status bar, and ``cancel`` (or a newer question of the same kind) stops one between two steps:
- the advice, for the selected unit, while the starshell tool is on (``set_advising``);
- the threat map, for a side the player picks (``set_threat_side``), shown for a unit on foot,
  a moving vehicle or a moving tracked one (``set_threat_mode``, E1.14);
- the route of one unit to one hex (``set_route``), by the Route tool.
Each question has its own generation: an answer for a position or a question no longer shown
is dropped.  ``working`` names what is being worked out, for the panels to say so at once.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from engine import api

MODES = {"infantry": "a unit on foot (within NVR or lit, or by Gunflash)",
         "vehicle": "a moving vehicle (1.5\u00d7 NVR, E1.14)",
         "tracked": "a moving tracked vehicle (2\u00d7 NVR, E1.14)"}
LIT_ENEMIES = api.night.LIT_ENEMIES  # the engine's objectives: this, or "target:HEX"
WORK = {"advice": "the best starshells", "threat": "what the enemy sees",
        "route": "the dark way"}
STOPPED = "Stopped working out {what}: change the position or the question to ask again."


def route_job(scenario, unit_id: str, to_hex: str, costs, known):
    """(route, the side's threat) on the engine's thread, a step at a time (the runner shows
    each step's progress and may stop between two); ``known``: the threat of the unit's side
    for this scenario, when the window holds it already (it is not worked out again)."""
    side = scenario.unit(unit_id).side
    seen_by = known if known is not None and known.side == side else None
    if seen_by is None:
        seen_by = yield from api.night.threat_steps(scenario, side)
    way = yield from api.night.route_steps(scenario, unit_id, to_hex, costs, seen_by)
    return way, seen_by


class Planner(QObject):
    adviceChanged = Signal()
    threatChanged = Signal()
    routeChanged = Signal()
    workingChanged = Signal()
    told = Signal(str)

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.advising = False
        self.whole_side = False             # every qualified unit of the side, not one
        self.objective = LIT_ENEMIES
        self.advice = None                  # api.night.Advice of the selected unit, or None
        self.advice_error: str | None = None
        self.threat_side: str | None = None
        self.threat_mode = "infantry"
        self.threat = None                  # api.night.Threat of ``threat_side``, or None
        self.threat_error: str | None = None
        self.route_ends: tuple[str, str] | None = None     # (unit id, goal hex)
        self.costs: dict | None = None      # the player's movement-cost table, or None
        self.costs_path: str | None = None  # ... and its file
        self.route = None                   # api.night.Route, or None
        self.route_error: str | None = None
        self._asked: dict[str, tuple] = {}  # kind -> (generation, the question's key)
        self._jobs: dict = {}               # kind -> the runner's Job working it out
        self._generation = 0
        self._side_threat = None            # the last threat of any side (the route reuses it)
        self.working: set[str] = set()
        document.answersChanged.connect(self._position)
        document.selectionChanged.connect(self._position)

    # ------------------------------------------------------------------------ what is asked
    def set_advising(self, on: bool) -> None:
        self.advising = on
        self._ask_advice()

    def set_whole_side(self, on: bool) -> None:
        """Rank the placements of every qualified unit of the selected unit's side (one roller
        per hex, the engine's choice, W-21), not the selected unit's alone."""
        self.whole_side = on
        self._asked.pop("advice", None)
        self._ask_advice()

    def set_objective(self, objective: str) -> None:
        """``lit-enemies`` or ``target:HEX`` (the engine checks the hex)."""
        self.objective = objective
        self._asked.pop("advice", None)
        self._ask_advice()

    def set_threat_side(self, side: str | None) -> None:
        self.threat_side = side
        if side is None:
            self._asked.pop("threat", None)
            self._forget("threat")
            self.threat = None
            self.threatChanged.emit()
        self._ask_threat()

    def set_threat_mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"no threat mode {mode!r}: {', '.join(MODES)}")
        self.threat_mode = mode
        self.threatChanged.emit()

    def set_route(self, unit_id: str | None, to_hex: str | None) -> None:
        """The dark way of ``unit_id`` to ``to_hex`` (None: no route shown)."""
        self.route_ends = None if unit_id is None or to_hex is None else (unit_id, to_hex)
        if self.route_ends is None:
            self._asked.pop("route", None)
            self._forget("route")
            self.route, self.route_error = None, None
            self.routeChanged.emit()
            return
        self._ask_route()

    def set_costs(self, costs: dict | None, path: str | None = None) -> None:
        """The movement-cost table ``{terrain: MP or None}`` the routes are counted in, read
        from the file ``path`` (None: ASL's Infantry MF, built into the engine)."""
        self.costs, self.costs_path = costs, path
        self._asked.pop("route", None)
        self._ask_route()

    # ------------------------------------------------------------------------ asking
    def _position(self) -> None:
        self._ask_advice()
        self._ask_threat()
        self._ask_route()

    def _ask(self, kind: str, key: tuple, job, *args) -> None:
        """``job(*args)`` on the engine's thread unless ``key`` was asked already."""
        held = self._asked.get(kind)
        if held is not None and held[1][0] is key[0] and held[1][1:] == key[1:]:
            return                          # the same position (by identity) and question
        self._generation += 1
        generation = self._generation
        self._asked[kind] = (generation, key)
        self._stop(kind)                    # the older question's steps: no longer wanted
        self.working.add(kind)
        self.workingChanged.emit()
        self._jobs[kind] = self.document.run(
            job, *args, text=f"Working out {WORK[kind]}\u2026",
            done=lambda future: self._answered(kind, generation, future))

    def _stop(self, kind: str) -> None:
        job = self._jobs.pop(kind, None)
        if job is not None:
            job.cancel()                    # nothing once ended

    def cancel(self, kind: str | None = None) -> None:
        """Stop working out ``kind`` (None: every question) between two of its steps; it is
        asked again when the position or the question changes."""
        for k in [kind] if kind is not None else list(WORK):
            if k in self.working:
                self._stop(k)
                self._asked.pop(k, None)
                words = STOPPED.format(what=WORK[k])
                setattr(self, k, None)
                setattr(self, f"{k}_error", words)
                self._forget(k)
                getattr(self, f"{k}Changed").emit()
                self.told.emit(words)

    def _forget(self, kind: str) -> None:
        if kind in self.working:
            self.working.discard(kind)
            self.workingChanged.emit()

    def _answered(self, kind: str, generation: int, future) -> None:
        held = self._asked.get(kind)
        if held is None or held[0] != generation:
            return                          # another question since: its answer will come
        self._forget(kind)
        self._jobs.pop(kind, None)
        error = future.exception()
        getattr(self, f"_take_{kind}")(None if error is not None else future.result(),
                                       None if error is None else str(error))

    def _ask_advice(self) -> None:
        d = self.document
        if not self.advising or d.viewer is None:
            self._asked.pop("advice", None)
            self._forget("advice")
            if self.advice is not None or self.advice_error is not None:
                self.advice, self.advice_error = None, None
                self.adviceChanged.emit()
            return
        if self.whole_side:
            side = d.scenario.unit(d.viewer).side
            self._ask("advice", (d.scenario, side, self.objective), api.night.advise_steps,
                      d.scenario, None, side, self.objective)
            return
        self._ask("advice", (d.scenario, d.viewer, self.objective), api.night.advise_steps,
                  d.scenario, d.viewer, None, self.objective)

    def _take_advice(self, advice, error) -> None:
        self.advice, self.advice_error = advice, error
        self.adviceChanged.emit()

    def _ask_threat(self) -> None:
        side = self.threat_side
        s = self.document.scenario
        if side is None:
            return
        if side not in s.sides:
            self.set_threat_side(None)
            return
        self._ask("threat", (s, side), api.night.threat_steps, s, side)

    def _take_threat(self, threat, error) -> None:
        self.threat, self.threat_error = threat, error
        if threat is not None:
            self._side_threat = (self.document.scenario, threat)
        if error is not None:
            self.told.emit(f"The threat map failed: {error}")
        self.threatChanged.emit()

    def _ask_route(self) -> None:
        if self.route_ends is None:
            return
        s = self.document.scenario
        unit_id, goal = self.route_ends
        if unit_id not in {u.id for u in s.units}:
            self.set_route(None, None)
            return
        known = self._side_threat[1] if self._side_threat and self._side_threat[0] is s else None
        self._ask("route", (s, unit_id, goal, self.costs), route_job, s, unit_id, goal,
                  self.costs, known)

    def _take_route(self, answer, error) -> None:
        if answer is None:
            if self.costs_path is not None and "cost" in error:
                error = f"{self.costs_path}: {error}"       # the table's fault: its file named
            self.route, self.route_error = None, error
        else:
            self.route, seen_by = answer
            self.route_error = None
            self._side_threat = (self.document.scenario, seen_by)
        self.routeChanged.emit()

    # ------------------------------------------------------------------------ reading
    def threat_counts(self):
        """Per hex (map order): how many enemy units see a unit of the threat's side entering
        it, for the mode shown; None without a threat map."""
        th = self.threat
        if th is None:
            return None
        return th.seen(vehicle=self.threat_mode != "infantry",
                       tracked=self.threat_mode == "tracked").sum(axis=0)

    def threat_words(self, index: int) -> str | None:
        """One line on hex ``index``: who sees a unit of the side there, and how."""
        th = self.threat
        if th is None or not 0 <= index < len(th.names):
            return None
        c = th.at(index)
        sees = th.seen(vehicle=self.threat_mode != "infantry",
                       tracked=self.threat_mode == "tracked")[:, index]
        who = [v for v, s in zip(th.viewers, sees.tolist()) if s]
        side, noun = self.threat_side, (self.threat_mode if self.threat_mode != "infantry"
                                        else "unit")
        article = "an" if side[:1].lower() in "aeiou" else "a"
        return (f"{th.names[index]}: {len(who)} enemy unit(s) see {article} {side} {noun} here"
                + (f" ({', '.join(who)})" if who else "")
                + f" \u2013 on foot: {c['nvr']} within NVR or lit, {c['gunflash']} by Gunflash"
                f"; moving vehicle {c['moving_vehicle']}, tracked {c['moving_tracked']}")


__all__ = ["Planner", "MODES", "STOPPED", "WORK", "route_job"]
