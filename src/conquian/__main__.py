"""``python -m conquian``: the command line of `conquian.cli`."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
