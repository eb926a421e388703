"""The night planner, one feature in one place: its job (``job.Planner``: the best starshell, the
threat map, the dark route, worked out by the app's job runner), the ranked list in the Starshell
panel (``advice``), its marks on the map (``overlay``), the Route tool (``route_tool``) and
``install``, which puts these in the window from the collaborators it is handed."""
