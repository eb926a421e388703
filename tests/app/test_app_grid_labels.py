"""Play-test: zoomed out, the row number "10" and the column letter "B" printed at a board's
bottom-left corner were drawn over each other ("10" on "B"); where two would meet, the one
placed later (the row number) is left out, as every other letter is where they crowd."""
from __future__ import annotations

import numpy as np


def test_no_two_letters_or_numbers_along_the_edges_overlap(window):
    scene, view = window.scene, window.view
    view.fit_map()
    scale = view.transform().m11()
    labels = scene.grid.edge_labels(scale)
    texts = [text for _, text in labels]
    assert "B" in texts and sum(text.isdigit() for text in texts) >= 16
    r = np.array([(q.left(), q.top(), q.right(), q.bottom()) for q, _ in labels])
    overlap = ((r[:, None, 0] < r[None, :, 2]) & (r[:, None, 2] > r[None, :, 0])
               & (r[:, None, 1] < r[None, :, 3]) & (r[:, None, 3] > r[None, :, 1]))
    np.fill_diagonal(overlap, False)
    assert not overlap.any()
