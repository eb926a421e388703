"""VASL games in the night room: opening a saved game (``vsav_open``), following one as VASL
writes it (``follow``), the sides asked for a save of more than two nationalities
(``sides_dialog``), the Waiting dock of counters not yet on the map (``waiting``) and the kept
support weapons and Guns drawn on the map (``kept_pieces``).  Importing a VASL *board* belongs to
the board editor (``app.night.editor.vasl_import``)."""
