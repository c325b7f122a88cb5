#!/usr/bin/env bash
# Compares two builds of splitbill on one command, the way the rounds in docs/performance.md were
# measured: the two binaries run alternately (so a machine that drifts slows both alike), N times
# each, and the minimum and median wall and user times are printed.
#
#   scripts/compare.sh OLD_BINARY NEW_BINARY RUNS ARGUMENTS...
#   scripts/compare.sh /tmp/splitbill-before .build/release/splitbill 7 \
#       report --format json -o /dev/null .build/bench/bills-200000.csv
#
# Keep a copy of the old binary before rebuilding (cp .build/release/splitbill /tmp/splitbill-before).
# Use the benchmark's own files: a path of 15 bytes or fewer hides costs that longer paths have.
set -euo pipefail
if [ $# -lt 4 ]; then
  sed -n '2,12p' "$0" >&2
  exit 64
fi
old=$1 new=$2 runs=$3
shift 3
times=$(mktemp)
trap 'rm -f "$times"' EXIT
for _ in $(seq "$runs"); do
  for binary in "$old" "$new"; do
    # Exit 1 (some bills invalid) is an ordinary outcome; anything else is not.
    status=0
    /usr/bin/time -o "$times" -a -f "$binary %e %U" "$binary" "$@" >/dev/null 2>&1 || status=$?
    if [ "$status" -gt 1 ]; then
      echo "compare: $binary $* exited $status" >&2
      exit 1
    fi
  done
done
python3 - "$times" "$old" "$new" <<'PY'
import statistics, sys
path, old, new = sys.argv[1:]
runs = {old: [], new: []}
for line in open(path):
    binary, wall, user = line.rsplit(None, 2)
    runs[binary].append((float(wall), float(user)))
for label, binary in (("old", old), ("new", new)):
    walls = [w for w, _ in runs[binary]]
    users = [u for _, u in runs[binary]]
    print("%s  wall min %.2f s, median %.2f s | user min %.2f s, median %.2f s  (%s, %d runs)" % (
        label, min(walls), statistics.median(walls), min(users), statistics.median(users), binary, len(walls)))
PY
