#!/usr/bin/env python3
"""Writes an exchange-rate file in the European Central Bank's shape (eurofxref-hist.csv): a
header `Date,USD,JPY,KWD,GBP,` with a trailing empty column, one row per business day, newest
first, base EUR, rates with 4 to 6 significant digits, now and then `N/A`.

The rates are a seeded random walk, not the ECB's figures: a stand-in for benchmarks and tests of
`splitbill report --settle-in EUR --rates FILE` (every day a distinct rate, the worst case for the
exact conversion, whose denominators grow with every distinct rate).

    python3 scripts/generate_rates.py --from 2026-01-01 --to 2026-12-31 --seed 7 > rates.csv
"""

import argparse
import datetime
import random

START = {"USD": 1.08, "JPY": 161.0, "KWD": 0.333, "GBP": 0.86}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--from", dest="start", default="2026-01-01")
    parser.add_argument("--to", dest="end", default="2026-12-31")
    parser.add_argument("--seed", type=int, default=7)
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    day = datetime.date.fromisoformat(arguments.start)
    end = datetime.date.fromisoformat(arguments.end)
    rates = dict(START)
    rows = []
    while day <= end:
        if day.weekday() < 5:
            cells = []
            for code in START:
                rates[code] *= 1 + rng.uniform(-0.004, 0.004)
                if rng.random() < 0.01:
                    cells.append("N/A")
                else:
                    # Four to six significant digits, as the ECB publishes them.
                    cells.append(f"{rates[code]:.{rng.choice([4, 5, 6])}g}")
            rows.append(f"{day.isoformat()},{','.join(cells)},")
        day += datetime.timedelta(days=1)
    print("Date," + ",".join(START) + ",")
    for row in reversed(rows):
        print(row)


if __name__ == "__main__":
    main()
