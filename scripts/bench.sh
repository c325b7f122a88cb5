#!/usr/bin/env bash
# The benchmark, in one command: scripts/bench.sh [--sizes 200000,1000000] [--runs 3]
# Builds the release binary and the libyaml floor program, installs miller if missing (Debian),
# generates seeded bill files under .build/bench, times everything, prints a Markdown table and
# writes it to .build/bench/results.md. See docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v mlr >/dev/null 2>&1; then
  echo "bench: installing miller (mlr), the CSV reference" >&2
  apt-get install -y -qq miller >/dev/null
fi
if [ ! -x /usr/bin/time ]; then
  echo "bench: installing GNU time, for peak RSS" >&2
  apt-get install -y -qq time >/dev/null
fi
mkdir -p .build/bench
swift build -c release --product splitbill >&2
cc -O2 -o .build/bench/libyaml_floor scripts/libyaml_floor.c $(pkg-config --cflags --libs yaml-0.1 2>/dev/null || echo -lyaml)
exec python3 scripts/bench.py --binary .build/release/splitbill --floor .build/bench/libyaml_floor "$@"
