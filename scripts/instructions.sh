#!/usr/bin/env bash
# Instructions executed per thread by one command, counted by valgrind's callgrind: a measure
# that does not drift with the machine, for comparing two builds when wall times wander by more
# than the change (the rounds in docs/performance.md give both).
#
#   scripts/instructions.sh BINARY ARGUMENTS...
#   scripts/instructions.sh .build/static/release/splitbill \
#       report --format json -o /dev/null .build/bench/bills-20000.csv
#
# Prints one line per thread, largest first: millions of instructions, and the thread's busiest
# function (inclusive). Runs about 50 times slower than natively: use the 20,000-bill files
# (scripts/bench.sh --sizes 20000 --runs 1 makes them). Instructions are not time: cache misses,
# waiting and the kernel are not in them. Needs valgrind (apt-get install valgrind).
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,13p' "$0" >&2
  exit 64
fi
command -v valgrind >/dev/null || { echo "instructions: valgrind is not installed" >&2; exit 69; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Exit 1 (some bills invalid) is an ordinary outcome. Hashing is made deterministic, so that the
# hash tables' random seed is not one more thing that moves a count; runs of one build still
# differ by up to 5 M instructions on the 20,000-bill JSON report's writer thread (330.5 to
# 335.5 M, eight runs: the repeat finder's and the allocator's work), so compare several runs.
SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$out/cg" "$@" >/dev/null 2>"$out/log" || {
  status=$?
  if [ "$status" -gt 1 ]; then
    cat "$out/log" >&2
    exit "$status"
  fi
}
for file in "$out"/cg-*; do
  total=$(awk '/^(summary|totals):/ {print $2; exit}' "$file")
  top=$(callgrind_annotate --inclusive=yes "$file" 2>/dev/null |
    awk '!found && /SplitBill(Input|CLI|Reports|Core)/ && !/Pipeline|ReadingThread|Thread|dispatch/ {sub(/^.*:/, ""); print; found = 1}')
  printf '%12s M  %s\n' "$(awk -v t="$total" 'BEGIN {printf "%.1f", t / 1e6}')" "${top:0:100}"
done | sort -rn
