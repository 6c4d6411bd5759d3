"""Reading and writing the library's documents: JSON, positions, views and records.

- `jsonio`: the JSON values shared by every document (cards, melds, results);
- `codec`: the shared driver of positions and the per-engine codecs' base;
- `views`: a player's view as JSON;
- `records`: `GameRecord`, a whole game as text (public as `conquian.records`);
- `schemas/`: the JSON Schemas of these documents.

Nothing is imported here (each layer imports the module it needs), so that reading this
package never loads the engines.
"""
