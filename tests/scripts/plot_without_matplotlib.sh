#!/bin/sh
# ctest: scripts/plot.py where matplotlib cannot be imported (a stand-in package that fails
# on import comes first on PYTHONPATH): --help still works, and a plot request is one line
# naming the Debian packages, exit 2, no traceback.
# Usage: plot_without_matplotlib.sh PYTHON PLOT_PY
set -u
py=$1 plot=$2
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/fake/matplotlib"
echo 'raise ImportError("No module named matplotlib")' > "$work/fake/matplotlib/__init__.py"
fail() { echo "FAIL: $*"; exit 1; }
PYTHONPATH="$work/fake" "$py" "$plot" --help > "$work/help.txt" 2>&1 || fail "--help exits $?"
grep -q "usage:" "$work/help.txt" || fail "--help prints no usage"
echo '{}' > "$work/r.json"
PYTHONPATH="$work/fake" "$py" "$plot" "$work/r.json" > "$work/out.txt" 2> "$work/err.txt"
status=$?
[ "$status" -eq 2 ] || fail "exit status $status, expected 2"
[ "$(wc -l < "$work/err.txt")" -eq 1 ] || fail "stderr is not one line: $(cat "$work/err.txt")"
grep -q "python3-matplotlib" "$work/err.txt" || fail "the message names no package: $(cat "$work/err.txt")"
! grep -q "Traceback" "$work/err.txt" || fail "a traceback"
[ ! -e "$work/r-hist.png" ] || fail "a picture was written"
echo "ok: $(cat "$work/err.txt")"
