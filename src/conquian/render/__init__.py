"""Showing positions: text diagrams, SVG pictures and the terminal.

- `text`: text diagrams of states and views (public as `conquian.diagram`);
- `svg`: SVG pictures of cards, melds and positions (public as `conquian.svg`);
- `terminal`: what the command line prints and reads.

Nothing is imported here (each layer imports the module it needs).
"""
