"""The LOS thread: the string drawn on the map from one hex to another (``item``) and the tool
that stretches it and asks the engine what it crosses (``tool``)."""
