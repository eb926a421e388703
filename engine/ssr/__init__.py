"""A scenario's terrain SSRs applied to a board as VASL applies them (rules.md 11.2).

- ``table``: VASL's rule list (``importers/data/vasl_los_ssr_rules.csv``, from VASL's
  ``SharedBoardMetadata.xml``) and the outcome of applying a list of rule names;
- ``pixels``: the rules over a board's terrain as drawn (``Raster``: VASL terrain codes, levels);
- ``hexmodel``: the same rules over the hex model (``Board``: per-hex terrain, hexsides);
- ``picture``: a board picture recoloured by VASL's colour rules;
- ``apply``: one board with its rules applied (pixels, then hex model), kept per board and rules.

VASL's order (rules.md 11.2): the LOSData read, the SSRs on the pixel grids in the rule list's
order, then overlays, then the board turned.  Overlays come after these functions and before
``maps`` turns a board: ``apply.board_with_rules`` takes them as a hook (``overlays``).
"""
