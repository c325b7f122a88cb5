#!/usr/bin/env python3
"""Writes an exchange-rate file in the European Central Bank's shape (eurofxref-hist.csv): a
header `Date,USD,JPY,KWD,GBP,` with a trailing empty column, one row per business day, newest
first, base EUR, rates with 4 to 6 significant digits, now and then `N/A`.

The rates are a seeded random walk, not the ECB's figures: a stand-in for benchmarks and tests of
`splitbill report --settle-in EUR --rates FILE` (every day a distinct rate, the worst case for the
exact conversion, whose denominators grow with every distinct rate).

    python3 scripts/generate_rates.py --from 2026-01-01 --to 2026-12-31 --seed 7 > rates.csv

With --history, the published history's 41 columns instead (withdrawn currencies such as CYP and
HRK `N/A` after the month they were withdrawn), 1999-01-04 onwards by default: a stand-in of the
same shape and size (about 1.9 MB) as the ECB's eurofxref-hist.csv.
"""

import argparse
import datetime
import random

START = {"USD": 1.08, "JPY": 161.0, "KWD": 0.333, "GBP": 0.86}

# The published history's columns, and the month each withdrawn currency stopped.
HISTORY = ("USD JPY BGN CYP CZK DKK EEK GBP HUF LTL LVL MTL PLN ROL RON SEK SIT SKK CHF ISK NOK HRK RUB TRL "
           "TRY AUD BRL CAD CNY HKD IDR ILS INR KRW MXN MYR NZD PHP SGD THB ZAR").split()
WITHDRAWN = {"CYP": "2008-01", "EEK": "2011-01", "HRK": "2023-01", "LTL": "2015-01", "LVL": "2014-01",
             "MTL": "2008-01", "ROL": "2005-07", "SIT": "2007-01", "SKK": "2009-01", "TRL": "2005-12"}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--from", dest="start", default="2026-01-01")
    parser.add_argument("--to", dest="end", default="2026-12-31")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--history", action="store_true", help="the published history's 41 columns")
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    if arguments.history:
        start = {code: START.get(code, rng.uniform(0.5, 50.0)) for code in HISTORY}
    else:
        start = dict(START)
    day = datetime.date.fromisoformat(arguments.start)
    end = datetime.date.fromisoformat(arguments.end)
    rates = dict(start)
    rows = []
    while day <= end:
        if day.weekday() < 5:
            cells = []
            for code in start:
                rates[code] *= 1 + rng.uniform(-0.004, 0.004)
                if code in WITHDRAWN and day.isoformat()[:7] >= WITHDRAWN[code]:
                    cells.append("N/A")
                elif rng.random() < 0.01:
                    cells.append("N/A")
                else:
                    # Four to six significant digits, as the ECB publishes them.
                    cells.append(f"{rates[code]:.{rng.choice([4, 5, 6])}g}")
            rows.append(f"{day.isoformat()},{','.join(cells)},")
        day += datetime.timedelta(days=1)
    print("Date," + ",".join(start) + ",")
    for row in reversed(rows):
        print(row)


if __name__ == "__main__":
    main()
