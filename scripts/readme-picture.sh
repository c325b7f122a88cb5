#!/usr/bin/env bash
# Renders the README's picture of the HTML report's charts (docs/images/trip-charts.png): the
# sample trip's report, its chart sections only (by category, balances, consumed and paid), drawn
# by headless Chromium (apt-get install chromium). Run from the package root after a build.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift run -q splitbill report samples/trip.yaml --format html -o "$work/report.html"
python3 - "$work/report.html" "$work/charts.html" <<'PY'
import re, sys
page = open(sys.argv[1], encoding='utf-8').read()
head = page[:page.index('<body>') + len('<body>')]
start = page.index('<h2 id="by-category">')
end = page.index('<h2>People</h2>')
open(sys.argv[2], 'w', encoding='utf-8').write(head + page[start:end] + '</body></html>\n')
PY
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1000,${HEIGHT:-2450} \
  --screenshot="$PWD/docs/images/trip-charts.png" "file://$work/charts.html" 2>/dev/null
echo "wrote docs/images/trip-charts.png"
