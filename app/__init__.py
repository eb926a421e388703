"""Starshell's desktop program (PySide6): it asks the engine and draws the answers.

No rule logic here (docs/architecture.md): the engine decides, the app shows.  Entry point:
``python -m app`` (``app.__main__.main``, the ``starshell`` gui-script).

One folder per room, each with the same door (``open_window``, ``save_screenshot``) and a
``Document`` of its own: ``night`` (ASL night visibility), ``napoleonic`` (the fire room),
``tabletop`` (DBA shooting).  ``rooms`` picks a room by a file's format; the rest of this
folder is shared by every room and knows none: ``room_window`` (window helpers), ``render``
(a view to an image), ``export``, ``file_filters``, ``recent``, ``style``, ``hex_geometry``.
"""
