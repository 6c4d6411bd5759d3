"""``python -m conquian.formats.schemas``: write the rules objects into the schema files."""

import sys

from . import main

sys.exit(main())
