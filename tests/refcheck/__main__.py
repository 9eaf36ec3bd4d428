"""Entry point: `python3 tests/refcheck SUBCOMMAND ...` (or `python3 -m refcheck` with
tests/ on the path)."""

import os
import sys

if not __package__:
    # run by path: the package's parent on the path in place of the package's own folder,
    # so that it is imported as `refcheck` and its modules do not stand as top-level ones
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    from refcheck.cli import main
else:
    from .cli import main

if __name__ == "__main__":
    sys.exit(main())
