"""Starshell's desktop program (PySide6): it asks the engine and draws the answers.

No rule logic here (shared/ARCHITECTURE.md): the engine decides, the app shows.  Entry point:
``python -m app`` (``app.__main__.main``, the ``starshell`` gui-script).
"""
