#!/bin/sh
# ctest train_smoke: scripts/train on a small positions file written here takes seconds,
# writes a weights file the C++ inference loads, whose outputs equal the trainer's golden
# ones (carcsolo_value_golden), and is reproducible: a second run with the same seed writes
# the same bytes, another seed a different net. Without PyTorch: "SKIP: ..." and exit 77.
# Usage: train_smoke.sh PYTHON TRAIN CARCSOLO VALUE_GOLDEN
set -u
py=$1 train=$2 carcsolo=$3 golden=$4
"$py" -c 'import torch, numpy' 2>/dev/null || {
  echo "SKIP: PyTorch or numpy cannot be imported by $py (Debian packages python3-torch python3-numpy)"
  exit 77
}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$carcsolo" positions --games 40 --seed 5 --mix --placement heuristic --scoring best --threads 1 -q \
  --out "$work/p.bin" || fail "positions exited $?"
"$py" "$train" "$work/p.bin" --out "$work/a.net" --golden "$work/a.golden" --epochs 3 --hidden 16,8 \
  > "$work/train.txt" 2>&1 || fail "train exited $?: $(cat "$work/train.txt")"
grep -q "held-out MSE" "$work/train.txt" || fail "no held-out MSE reported"
"$golden" "$work/a.net" "$work/a.golden" || fail "the C++ inference differs from the trainer's golden"
"$py" "$train" "$work/p.bin" --out "$work/b.net" --epochs 3 --hidden 16,8 -q > /dev/null 2>&1 \
  || fail "second train exited $?"
cmp -s "$work/a.net" "$work/b.net" || fail "the same seed gave a different net"
"$py" "$train" "$work/p.bin" --out "$work/c.net" --epochs 3 --hidden 16,8 --seed 2 -q > /dev/null 2>&1 \
  || fail "third train exited $?"
! cmp -s "$work/a.net" "$work/c.net" || fail "another seed gave the same net"
# A changed weight no longer matches the file's hash: the loader refuses it.
sed '/^bias /s/ [0-9a-f]\{8\}$/ 3f800000/' "$work/a.net" > "$work/d.net"
! cmp -s "$work/a.net" "$work/d.net" || fail "could not change a weight"
"$golden" "$work/d.net" "$work/a.golden" > /dev/null 2> "$work/err.txt"
[ $? -eq 2 ] || fail "a net with a changed weight was not refused"
grep -q "hash" "$work/err.txt" || fail "the refusal does not name the hash: $(cat "$work/err.txt")"
# Bad input: one line, exit 2.
"$py" "$train" "$work/train.txt" --out "$work/e.net" > /dev/null 2> "$work/err.txt"
[ $? -eq 2 ] || fail "a file that is not positions did not exit 2"
[ "$(wc -l < "$work/err.txt")" -eq 1 ] || fail "stderr is not one line: $(cat "$work/err.txt")"
[ ! -e "$work/e.net" ] || fail "a net was written from bad input"
# The second feature set: positions --board from a small search with its net at the leaves,
# a net of 109 inputs fitted to the mean of the result and search's root value, whose C++
# inference (reading the board block) gives the trainer's golden outputs.
"$carcsolo" positions --games 16 --seed 6 --board --placement search:candidates=6,beam=3,rollouts=4,leaf=1 \
  --scoring best --threads 1 -q --out "$work/board.bin" || fail "positions --board exited $?"
"$py" "$train" "$work/board.bin" --features 109 --target mean --out "$work/f.net" --golden "$work/f.golden" \
  --epochs 2 --hidden 16,8 > "$work/board.txt" 2>&1 || fail "train --target mean exited $?: $(cat "$work/board.txt")"
grep -q "109 inputs, target mean" "$work/board.txt" || fail "the board net's line: $(head -1 "$work/board.txt")"
grep -q "^layers 109 " "$work/f.net" || fail "the board net does not take 109 inputs"
"$golden" "$work/f.net" "$work/f.golden" || fail "the C++ inference of the board net differs from the trainer's"
for bad in "--target mean" "--features 109"; do  # the first file has neither root_value nor the board block
  "$py" "$train" "$work/p.bin" $bad --out "$work/g.net" > /dev/null 2> "$work/err.txt"
  [ $? -eq 2 ] || fail "$bad on a file without --board did not exit 2"
  [ "$(wc -l < "$work/err.txt")" -eq 1 ] || fail "$bad: stderr is not one line: $(cat "$work/err.txt")"
done
echo "ok: $(tail -1 "$work/train.txt")"
