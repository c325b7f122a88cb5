#!/usr/bin/env bash
# Checks that two builds of splitbill give the same bytes: stdout, stderr and exit code of `check`
# (text and JSON) and of `report` in every format, on the samples, the broken samples, the test
# fixtures, generated trips and generated files full of broken bills (scripts/mutated_bills.py),
# read as files and from standard input, with and without the options that change reading.
#
#   scripts/same-output.sh OLD_BINARY NEW_BINARY [SEEDS]
#   IGNORE_JSON_KEYS=code,codes scripts/same-output.sh OLD NEW    # a change that only adds JSON fields
#
# Prints the first differences and exits 1 if any command differs; a refactoring that must not
# change behaviour is checked with it (keep a copy of the old binary before rebuilding). With
# IGNORE_JSON_KEYS, outputs that are JSON are compared with those keys removed at every level.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  sed -n '2,9p' "$0" >&2
  exit 64
fi
old=$1 new=$2 seeds=${3:-6}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/in"
for seed in $(seq "$seeds"); do
  roster=()
  ((seed % 3 == 0)) && roster=(--roster)
  python3 scripts/mutated_bills.py --seed "$seed" --bills 400 --yaml "$work/in/broken-$seed.yaml" \
    --csv "$work/in/broken-$seed.csv" "${roster[@]}"
done
python3 scripts/generate_bills.py --bills 3000 --seed 11 --yaml "$work/in/trip-3000.yaml" --csv "$work/in/trip-3000.csv"
# Names, ids and descriptions every writer must make safe: controls, bidi marks, separators of
# each syntax, quotes, a leading combining mark, wide characters.
python3 - "$work/in/hostile.yaml" <<'PY'
import json, sys
names = ["Ana, Jr.", "Ben; x", "C:D", "\"Q\" \\", "\u0301ab", "東京太郎", "x\u001b[2J", "R\u202eL", "=SUM(A1)", "-dash", "a  b", "c1\u0085x\u009f", "iso\u2066l\u2069", "del\u007f&<>'"]
ids = ["id,1", "id;2", "\u0007bell", "ok-3", "ümlaut", "東4", "a\"b\\c", "---", "x y"]
out = ["version: 1", "defaults: {currency: EUR, tip: 15%}", "bills:"]
for i, bill in enumerate(ids):
    diners = [names[(i + k) % len(names)] for k in range(2 + i % 4)]
    out += [f"  - id: {json.dumps(bill)}", f"    date: 2026-11-{10 + i}", f"    amount: {10 + i * 7}.{i}1",
            f"    description: {json.dumps(names[i % len(names)] + ' & ' + bill + chr(10) + 'line2')}",
            f"    diners: {json.dumps(diners)}", f"    paid_by: {json.dumps(diners[i % len(diners)])}"]
open(sys.argv[1], "w", encoding="utf-8").write("\n".join(out) + "\n")
PY
inputs=("$work"/in/* samples/trip.yaml samples/csv/trip.csv samples/invalid/* Tests/SplitBillInputTests/Fixtures/*)

differences=0
compared=0
# Runs one command with both binaries (`-` input from the file named last) and compares.
run() {
  local stdin=$1
  shift
  local label="$*"
  for side in old new; do
    local binary=$old
    [ "$side" = new ] && binary=$new
    local out="$work/$side"
    local status=0
    if [ -n "$stdin" ]; then
      "$binary" "$@" <"$stdin" >"$out.stdout" 2>"$out.stderr" || status=$?
    else
      "$binary" "$@" >"$out.stdout" 2>"$out.stderr" </dev/null || status=$?
    fi
    echo "$status" >"$out.status"
  done
  compared=$((compared + 1))
  if [ -n "${IGNORE_JSON_KEYS:-}" ]; then
    for side in old new; do
      python3 - "$work/$side.stdout" "$IGNORE_JSON_KEYS" <<'PY'
import json, sys
path, keys = sys.argv[1], set(sys.argv[2].split(","))
try:
    value = json.load(open(path, encoding="utf-8"))
except (ValueError, UnicodeDecodeError):
    sys.exit(0)
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k not in keys}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
json.dump(strip(value), open(path, "w", encoding="utf-8"), indent=1, ensure_ascii=False)
PY
    done
  fi
  for part in stdout stderr status; do
    if ! cmp -s "$work/old.$part" "$work/new.$part"; then
      differences=$((differences + 1))
      if ((differences <= 5)); then
        echo "differs ($part): $label" >&2
        diff "$work/old.$part" "$work/new.$part" | head -n 12 >&2 || true
      fi
      break
    fi
  done
}

for input in "${inputs[@]}"; do
  run "" check "$input"
  run "" check --format json "$input"
  for format in text json csv markdown html hledger ledger beancount; do
    run "" report --format "$format" "$input"
  done
  run "" report --format json --default-tip 15 --currency EUR --leftover remainder --rounding half-even "$input"
  run "" check --decimal-comma "$input"
done
for input in "$work"/in/broken-1.yaml samples/trip.yaml; do
  run "$input" report --format json -
  run "$input" check -
done
for input in "$work"/in/broken-1.csv samples/csv/trip.csv; do
  run "$input" report --format json --input-format csv -
done
run "" report --format json "${inputs[@]}"
run "" check "$work/in" samples
for input in "$work"/in/trip-3000.yaml "$work"/in/hostile.yaml "$work"/in/broken-1.yaml samples/trip.yaml; do
  for format in hledger ledger beancount; do
    run "" report --format "$format" --with-settlements "$input"
    run "" report --format "$format" --no-declarations "$input"
    for person in Ana Émile "Ana, Jr." "C:D"; do
      run "" report --format "$format" --books-of "$person" --with-settlements "$input"
    done
  done
done
run "" report samples/trip.yaml --week 2026-W47 --format json
# The one-bill commands, as a table and as JSON: every kind of bill they take, names that need
# escaping, and a mistake.
for json in "" --json; do
  run "" calc 84.50 --tip 18 --split 3 $json
  run "" calc 84.50 --tip 15% --people "Ana,Ben,Chloé" --currency EUR $json
  run "" calc 10000 --currency JPY --tip-amount 500 --people "Ana=2,Ben=1" --leftover remainder $json
  run "" calc 1.000 --currency KWD --tip 12.5 --people $'x"q\\ y,東京,+SUM(A1),R\u202eL,t\tb' --rounding half-even $json
  run "" calc 100 --tip 0 --split 3 --leftover to-tip $json
  run "" calc 99.99 --tip-amount 0.01 --people "Ana;Ben=1.5" --payer Ben --leftover payer $json
  run "" calc 84,50 --tip 18 --split 7 --decimal-comma --leftover first $json
  run "" calc --item "Wine=42.00@Ana;Ben" --item "Coffee=3.50x2" --people "Ana,Ben,Chloé" --tip 15 --tax 8% \
    --discount 10% --discount-items Wine --service 5% $json
  run "" calc --item "Soup=9.50" --item "Bread=2.00x2" --people Ana,Ben --currency EUR --tax 20% --tax-included \
    --tip 10 --tip-on total --receipt-total 13.50 $json
  run "" calc --item "Soup=9.50" --item "Tea=2.25@Ben" --people Ana,Ben --tip-amount 1.00 --service 2.00 \
    --discount 1.50 --tip-on subtotal 13.25 $json
  run "" calc 12.00 --tip 15 --item "Soup=9.50" --people Ana $json
  run "" calc -5 --tip 18 $json
  run "" suggest "slow service but lovely food" $json
  run "" suggest "great waiter, cold soup" --amount 84.50 --people "Ana,Ben=2,\"Q\"" --default-tip 18 $json
  run "" suggest "" --amount 1000 --currency JPY --split 3 --leftover remainder $json
done

echo "same-output: $compared commands compared, $differences differ"
((differences == 0))
