"""Element shooting on a tabletop (DBA 3.0; rules.md 9, seed ``004_*``).

No hexes: elements are rectangles on a table measured in base widths (BW).  ``troops`` holds the
troop types (depths, shooting ranges), ``table`` the table file (``starshell-table``),
``geometry`` the shapes, ``shooting`` the verdicts: which enemy an element may shoot, which it
must shoot, who supports it; ``rolls`` in which order the rolls come and the whole answer for one
shooter.  Imports the core only.
"""
