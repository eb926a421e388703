"""Starshells and IR (E1.9): the Starshell panel (``panel``), the tool that previews the drift
under the mouse and fires on release (``tool``), and the drift and placement previews on the map
(``preview``)."""
