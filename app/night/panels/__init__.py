"""The side panels: the position, the selected unit, the legend, the explanation of a hex."""
