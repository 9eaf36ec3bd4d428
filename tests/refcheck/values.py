"""How log values are told apart and shown in messages."""

import json


def is_int(v):
    """A JSON integer (Python's bool is an int, a log's true is not)."""
    return isinstance(v, int) and not isinstance(v, bool)


def fmt(v):
    """A value as compact JSON for a message; sets sorted, as {a, b}."""
    if isinstance(v, (set, frozenset)):
        return "{" + ", ".join(sorted(str(x) for x in v)) + "}"
    try:
        return json.dumps(v, separators=(",", ":"))
    except (TypeError, ValueError):
        return repr(v)
