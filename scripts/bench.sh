#!/usr/bin/env bash
# The benchmark, in one command: scripts/bench.sh [--sizes 200000,1000000] [--runs 3]
# Builds the release binary (statically linked Swift runtime, see below) and the libyaml floor
# program, installs miller, GNU time and libcurl4-openssl-dev if missing (Debian),
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
# The measured binary is the production build: release, with the Swift runtime and Foundation
# linked in (--static-swift-stdlib). Linking FoundationNetworking statically needs libcurl's
# development files. (The default dynamic build: python3 scripts/bench.py --binary .build/release/splitbill.)
if ! pkg-config --exists libcurl 2>/dev/null; then
  echo "bench: installing libcurl4-openssl-dev, to link the static build" >&2
  apt-get install -y -qq libcurl4-openssl-dev >/dev/null
fi
mkdir -p .build/bench
swift build -c release --static-swift-stdlib --scratch-path .build/static --product splitbill >&2
cc -O2 -o .build/bench/libyaml_floor scripts/libyaml_floor.c $(pkg-config --cflags --libs yaml-0.1 2>/dev/null || echo -lyaml)
exec python3 scripts/bench.py --binary .build/static/release/splitbill --floor .build/bench/libyaml_floor "$@"
