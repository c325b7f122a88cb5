#!/usr/bin/env python3
"""A seeded Splitwise "Export as spreadsheet" CSV for the import benchmark and tests.

scripts/generate_splitwise.py --rows 10000 --seed 7 --output FILE [--totals-json FILE]

Eight members, EUR and USD; expenses with one to three payers and payments, every cell exact to the
cent; a blank line and one Total balance row per currency at the end (the members' sums), as the
app writes them. --totals-json writes those totals as {currency: {member: "12.34"}} for checking.
"""
import argparse
import json
import random

parser = argparse.ArgumentParser()
parser.add_argument("--rows", type=int, required=True)
parser.add_argument("--seed", type=int, default=7)
parser.add_argument("--output", required=True)
parser.add_argument("--totals-json")
options = parser.parse_args()
rng = random.Random(options.seed)
members = ["Member %d" % n for n in range(1, 9)]


def money(units):
    sign = "-" if units < 0 else ""
    return "%s%d.%02d" % (sign, abs(units) // 100, abs(units) % 100)


totals = {"EUR": [0] * 8, "USD": [0] * 8}
lines = ["Date,Description,Category,Cost,Currency," + ",".join(members)]
for row in range(options.rows):
    currency = "USD" if row % 5 == 0 else "EUR"
    cost = rng.randint(100, 20000)
    cells = [0] * 8
    if row % 7 == 0:
        payer, receiver = rng.sample(range(8), 2)
        cells[payer] += cost
        cells[receiver] -= cost
        category, description = "Payment", "%s paid %s" % (members[payer], members[receiver])
    else:
        payers = rng.sample(range(8), rng.randint(1, 3))
        left = cost
        for index, payer in enumerate(payers):
            part = left if index == len(payers) - 1 else rng.randint(0, left)
            cells[payer] += part
            left -= part
        diners = sorted(rng.sample(range(8), rng.randint(1, 8)))
        for index, diner in enumerate(diners):
            cells[diner] -= cost // len(diners) + (1 if index < cost % len(diners) else 0)
        category, description = rng.choice(["Dining out", "Groceries", "Taxi", "General"]), "Expense %d" % row
    for index in range(8):
        totals[currency][index] += cells[index]
    date = "2026-%02d-%02d" % (1 + row % 12, 1 + row % 28)
    lines.append(",".join([date, description, category, money(cost), currency] + [money(c) for c in cells]))
lines.append("")
for currency in ("EUR", "USD"):
    lines.append(",Total balance,,,%s," % currency + ",".join(money(t) for t in totals[currency]))
with open(options.output, "w") as out:
    out.write("\n".join(lines) + "\n")
if options.totals_json:
    with open(options.totals_json, "w") as out:
        json.dump({c: dict(zip(members, map(money, t))) for c, t in totals.items()}, out)
