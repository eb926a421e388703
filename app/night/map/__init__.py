"""The map the player touches, put together: the scene that lays every feature's items over the
drawn ground (``map_scene``), the hand that routes the mouse to each feature's tool (``hand``),
the view (``view``) and the caption and key it can print (``map_key``).  It stands over the
features (planner, starshell, thread, vasl) because it composes them; the drawing parts they
share are in ``app.night.scene``, the shared tools in ``app.night.tools``."""
