"""The plain statements of the rules in code: naive move generators that every fast path of
the engines is checked against (two-hand: `two_hand`; Cooncan: `cooncan`)."""
