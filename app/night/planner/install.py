"""The night planner's parts in the window, put in place by ``install(...)`` from the collaborators
it is handed (the document, the scene and view, the planner and the starshell tool, the panels,
the menus, the status bar's words):

- the best starshell's ranked list in the Starshell panel (``advice.AdviceList``), its
  best placements labelled on the map (``overlay``);
- the threat map: View > Threat map (a side, or off) and what it is read for (a unit on foot, a
  moving vehicle, a moving tracked vehicle, E1.14); the hovered hex's count on the map and its
  watchers in the status bar;
- the Route tool's way (``route_tool``), its seen steps named in the Explanation panel;
- the status bar says what is being worked out while the engine works (``Planner.working``).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from html import escape

from PySide6.QtGui import QActionGroup
from PySide6.QtWidgets import QFileDialog, QStatusBar, QWidget

from engine import api

from .advice import AdviceList
from .job import MODES, WORK
from .overlay import PlannerLayer

ARROW = " \u2192 "


def route_html(planner) -> str:
    """The Explanation panel's words on the route shown (empty: none)."""
    if planner.route_ends is None:
        return ""
    unit, goal = planner.route_ends
    head = f"<p><b style='font-size:large'>Route {escape(unit)} \u2192 {escape(goal)}</b>"
    if "route" in planner.working:
        return head + "<br><i>working out the dark way\u2026</i></p><hr>"
    if planner.route_error is not None:
        return head + f"<br>{escape(planner.route_error)}</p><hr>"
    r = planner.route
    if r is None:
        return head + "</p><hr>"
    table = "" if planner.costs is None else " of your table"
    html = head + (f"<br>{r.hexes} hex(es), {r.cost:g} MF{table}; "
                   + ("<b style='color:#5ee08a'>dark: no Good Order enemy sees it</b>" if r.dark
                      else f"<b style='color:#ff8080'>seen in {len(r.seen)} hex(es), "
                      f"{r.sightings} sighting(s)</b>") + "</p>")
    html += f"<p>{escape(ARROW.join(r.path))}</p>" if r.path else ""
    html += "<ul style='margin-left:-20px'>" + "".join(
        f"<li>{escape(reason)}</li>" for reason in r.reasons)
    for hex_, who in r.seen.items():
        html += (f"<li><b>{escape(hex_)}</b>: "
                 + "; ".join(f"{escape(u)} \u2013 {escape(why)}" for u, why in sorted(who.items()))
                 + "</li>")
    return html + "</ul><hr>"


@dataclass(frozen=True)
class Status:
    """The status bar as the planner speaks to it: ``say(text, ms)``, ``error(title, text)``,
    the bar itself (a sentence said while working goes when the work is done), and the widget its
    file dialog belongs to."""
    say: Callable[..., None]
    error: Callable[[str, str], None]
    bar: QStatusBar
    parent: QWidget


class PlannerUi:
    def __init__(self, *, document, scene, view, planner, starshell_tool, starshell_panel,
                 explanation, view_menu, tools_menu, status: Status):
        self.document, self.status, self.explanation = document, status, explanation
        self.planner = planner
        self.layer = PlannerLayer(scene, planner)
        self.advice = AdviceList(document, planner, starshell_tool)
        starshell_panel.add_part(self.advice)
        view.hexHovered.connect(self._hovered)
        planner.told.connect(lambda text: status.say(text, 10000))
        for signal in (planner.routeChanged, planner.workingChanged):
            signal.connect(self._route_words)
        planner.workingChanged.connect(self._working)
        self._build_menu(view_menu)
        tools = tools_menu
        tools.addSeparator()
        self.costs_action = tools.addAction("Route: &movement-cost table\u2026", self.costs_dialog)
        self.hexes_action = tools.addAction("Route: ASL's &movement costs (MF)",
                                            lambda: self.load_costs(None))
        self.stop_action = tools.addAction("Planner: &stop working out", lambda: planner.cancel())
        self.stop_action.setEnabled(bool(planner.working))

    def _build_menu(self, view_menu) -> None:
        menu = self.threat_menu = view_menu.addMenu("&Threat map: what the enemy sees")
        menu.setObjectName("threat_menu")
        self.side_group = QActionGroup(menu)
        self.mode_group = QActionGroup(menu)
        self.mode_actions = {}
        menu.aboutToShow.connect(self.fill_menu)
        self.fill_menu()

    def fill_menu(self) -> None:
        """Off, each side of the position, then what the map is read for."""
        menu, p = self.threat_menu, self.planner
        menu.clear()
        for side in [None] + list(self.document.scenario.sides):
            a = menu.addAction("off" if side is None else f"of the {side} units: seen by the others")
            a.setCheckable(True)
            a.setChecked(side == p.threat_side)
            a.triggered.connect(lambda _=False, s=side: self.show_threat(s))
            self.side_group.addAction(a)
        menu.addSeparator()
        self.mode_actions = {}
        for mode, words in MODES.items():
            a = menu.addAction(f"for {words}")
            a.setCheckable(True)
            a.setChecked(mode == p.threat_mode)
            a.triggered.connect(lambda _=False, m=mode: p.set_threat_mode(m))
            self.mode_group.addAction(a)
            self.mode_actions[mode] = a

    def costs_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self.status.parent, "A movement-cost table",
                                              "", "Cost table (*.json)")
        if path:
            self.load_costs(path)

    def load_costs(self, path: str | None) -> bool:
        """Count routes in the movement points of the table file ``path`` (``{"terrain": cost
        or null}``; terrain not named costs 1), or in ASL's Infantry MF (None: the chart built
        into the engine, terrain, roads, hillsides and hexsides).  A bad file: its message."""
        if path is None:
            self.planner.set_costs(None)
            self.status.say("Routes counted in ASL's movement costs (MF)", 5000)
            return True
        try:
            costs = self.document.call(api.night.read_costs, path)
        except (api.ScenarioError, OSError, ValueError) as e:
            self.status.error("Cannot read the cost table", str(e))
            return False
        self.planner.set_costs(costs, path)
        self.status.say(f"Routes counted in movement points of {path}", 10000)
        return True

    def show_threat(self, side: str | None) -> None:
        self.planner.set_threat_side(side)
        self.status.say(f"Threat map: how many Good Order enemy units would see a unit of {side} "
                        "in each hex (hover a hex: who)" if side else "Threat map off", 10000)

    def _hovered(self, index: int) -> None:
        self.layer.set_hovered(index)
        words = self.planner.threat_words(index) if index >= 0 else None
        if words is not None:
            self.status.say(words, 10000)

    def _route_words(self) -> None:
        self.explanation.show_route(route_html(self.planner))

    def _working(self) -> None:
        working = sorted(self.planner.working)
        self.stop_action.setEnabled(bool(working))
        bar = self.status.bar
        if working:
            self._said = "Working out " + ", ".join(WORK[k] for k in working) + "\u2026"
            self.status.say(self._said, 60000)
        elif bar.currentMessage() == getattr(self, "_said", None):
            bar.clearMessage()          # worked out: the sentence goes


def install(*, document, scene, view, planner, starshell_tool, starshell_panel, explanation,
            view_menu, tools_menu, status: Status) -> PlannerUi:
    """The planner's parts in place, from every collaborator handed in by name (none looked up
    in a window): its list joins ``starshell_panel``, its marks ``scene``, its menus
    ``view_menu`` and ``tools_menu``, its route words ``explanation``."""
    return PlannerUi(document=document, scene=scene, view=view, planner=planner,
                     starshell_tool=starshell_tool, starshell_panel=starshell_panel,
                     explanation=explanation, view_menu=view_menu, tools_menu=tools_menu,
                     status=status)


__all__ = ["PlannerUi", "Status", "install", "route_html"]
