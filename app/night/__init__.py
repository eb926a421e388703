"""The night room (``format: "starshell-scenario"``, and VASL saved games): ASL chapter E1's
night visibility on a hex map."""
