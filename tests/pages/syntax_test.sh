#!/bin/sh
# The pages' own files (sim/*/page/: the replay page's and the table page's scripts and style
# sheets, compiled into the program) checked as text (run by ctest pages_js_syntax):
#
#   syntax_test.sh SOURCE_DIR
#
# every .js parses (`node --check`), every .css has its braces balanced, and neither holds
# "</script" or "</style", which would end the page's element early. A planted broken script
# must be refused, so the check is known to work. Fails, not skips, without node (Debian
# package nodejs; scripts/test installs it).
set -u
src=${1:?usage: syntax_test.sh SOURCE_DIR}
command -v node >/dev/null 2>&1 || { echo "FAIL: node is not installed (Debian package nodejs)"; exit 1; }
bad=0
scripts=0
sheets=0
for f in "$src"/sim/*/page/*.js; do
  [ -f "$f" ] || continue
  scripts=$((scripts + 1))
  node --check "$f" || { echo "FAIL: $f does not parse"; bad=1; }
done
for f in "$src"/sim/*/page/*.css; do
  [ -f "$f" ] || continue
  sheets=$((sheets + 1))
  [ -s "$f" ] || { echo "FAIL: $f is empty"; bad=1; }
  # Braces nest and close: the depth never goes below 0 and ends at 0 (comments aside).
  awk '{ gsub(/\/\*[^*]*\*\//, "");
         for (i = 1; i <= length($0); i++) { c = substr($0, i, 1);
           if (c == "{") d++; else if (c == "}" && --d < 0) { print FILENAME ":" NR ": a } closes nothing"; exit 1 } } }
       END { if (d > 0) { print FILENAME ": " d " { never closed"; exit 1 } }' "$f" \
    || { echo "FAIL: $f has unbalanced braces"; bad=1; }
done
for f in "$src"/sim/*/page/*.js "$src"/sim/*/page/*.css; do
  [ -f "$f" ] || continue
  if grep -qiE '</(script|style)' "$f"; then echo "FAIL: $f holds </script or </style"; bad=1; fi
done
[ "$scripts" -gt 0 ] && [ "$sheets" -gt 0 ] || { echo "FAIL: no page files under $src/sim/*/page/"; exit 1; }
# The check can fail: a script with a syntax error is refused.
planted=$(mktemp) || exit 1
printf 'const a = {;\n' > "$planted"
if node --check "$planted" >/dev/null 2>&1; then echo "FAIL: node --check accepted a broken script"; bad=1; fi
rm -f "$planted"
[ "$bad" -eq 0 ] && echo "checked $scripts scripts and $sheets style sheets"
exit "$bad"
