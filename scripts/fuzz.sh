#!/usr/bin/env bash
# Fuzzes the readers with libFuzzer (through the toolchain: -sanitize=fuzzer,address) for a while:
# every input is read as YAML and as CSV bills, a rates file (and one after an ECB header), an items
# file, an export of every app `import` reads, the books `export` writes for every app, a
# configuration file, a recurring bill's repeat, the header of each photo format scan reads and its
# --lang, the text Tesseract reads off a receipt, the values `add` is given, and the bytes as an
# IBAN; people's payment details read are checked as well (check digits counted again, EPC payload
# shape, no tag opened in HTML); the run stops at a
# crash, a trap, a bill whose shares do not add up to its total, a diagnostic outside the input, an
# import or an export that would not read back, an echoed API key, instances past the run's limit,
# a receipt verified with a check failed or a review outside its page, a books file
# changed by a refused `add` or left unreadable by an accepted one, or an input that takes more
# than 1 GB (-rss_limit_mb) or 20 s (Sources/SplitBillFuzz).
#
#   scripts/fuzz.sh [SECONDS] [CORPUS]        # default 60 s, corpus .build/fuzz-corpus
#
# The harness is a release build; FUZZ_CONFIGURATION=debug builds it unoptimised instead, CI's
# choice: its minute of fuzzing is a smoke run and a replay of the regressions. On a 2-core machine
# the debug build took 73 s alone and ran 2,217 inputs in a minute; the release build took 407 s
# beside CI's ThreadSanitizer build and ran 5,057.
#
# The corpus starts from the samples and the test fixtures and keeps what libFuzzer finds; an
# input that fails is saved in .build/fuzz-crashes/ and replays with the plain build:
#   swift run SplitBillFuzz .build/fuzz-crashes/crash-*
# Inputs it found that broke a rule are kept in Tests/FuzzRegressions/ (CI replays them).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
corpus=${2:-.build/fuzz-corpus}
mkdir -p "$corpus" .build/fuzz-crashes
for seed in samples/*.yaml samples/flat/*.yaml samples/csv/*.csv samples/invalid/*.yaml samples/invalid/*.csv \
  samples/receipts/* samples/import/* Tests/SplitBillInputTests/Fixtures/* Tests/SplitBillScanTests/Fixtures/* \
  Tests/FuzzRegressions/*; do
  cp -n "$seed" "$corpus/" 2>/dev/null || true
done
configuration=${FUZZ_CONFIGURATION:-release}
swift build -c "$configuration" --product SplitBillFuzz --scratch-path .build/fuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING 2>&1 | grep -v "Cannot export local symbol" | tail -n 1
# Leak checking is off: the Swift runtime's allocations at exit are reported as leaks.
log=.build/fuzz-crashes/last-run.log
status=0
# The harness writes each input to files under $TMPDIR; give it a directory of its own, removed after.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
TMPDIR="$scratch" ASAN_OPTIONS=detect_leaks=0:symbolize=0 .build/fuzz/"$configuration"/SplitBillFuzz -max_total_time="$seconds" -max_len=8192 \
  -timeout=20 -rss_limit_mb=1024 -print_final_stats=1 -artifact_prefix=.build/fuzz-crashes/ "$corpus" >"$log" 2>&1 || status=$?
grep -E "^(Done|stat::number_of_executed_units|SUMMARY)|Test unit written|Precondition failed" "$log" | tail -n 6 || true
if [ "$status" -ne 0 ]; then
  echo "fuzz: failed (exit $status); the input is in .build/fuzz-crashes/, the log in $log" >&2
  exit 1
fi
echo "fuzz: ${seconds} s, no rule broken"
