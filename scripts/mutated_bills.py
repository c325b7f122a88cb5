#!/usr/bin/env python3
"""Seeded YAML and CSV bill files in which many bills are broken, one mutation each.

    scripts/mutated_bills.py --seed 3 --bills 400 --yaml out.yaml --csv out.csv

For comparing two builds of splitbill on what they diagnose (scripts/same-output.sh): every
rule of the format is hit (bad amounts, tips, currencies, dates, diners, weights, payers,
policies, unknown and repeated keys, lists where a value belongs, anchors, aliases and merge
keys, invalid UTF-8, quotes in CSV cells), beside plainly valid bills, head counts, weights,
non-ASCII and decomposed names. The two files are not the same trip; each is read on its own.
"""
import argparse
import random

parser = argparse.ArgumentParser()
parser.add_argument("--bills", type=int, default=400)
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--yaml")
parser.add_argument("--csv")
parser.add_argument("--roster", action="store_true", help="give the YAML file a people: roster")
options = parser.parse_args()
random.seed(options.seed)

PEOPLE = ["Ana", "Ben", "Chloé", "Dmitri", "Émile", "E\u0301mile", "Farah", "Gus", "Hiro", " Ines ", "Jon\t"]
ROSTER = ["Ana", "Ben", "Chloé", "Dmitri", "Émile", "Farah", "Gus", "Hiro", "Ines", "Jon"]
CURRENCIES = ["EUR", "USD", "JPY", "KWD", "GBP", "eur", "EUR ", "XXX", "EURO", "CHF", "BHD", "CLF"]
AMOUNTS = ["84.50", "84.5", "84", "0.01", "0", "-3.00", "12.5O", "84,50", "1e3", "1.234", "99999999999999999999",
           "0.00", "+5", " 12.00", "12.00 ", "1_000", ".5", "5.", "١٢", "1,234.00"]
TIPS = ["18", "18%", "12.5", "0", "100", "101", "-1", "ai", "AI", "Ai", "eighteen", "18 %", "15,5", "0.001", "10.555",
        "50%%"]
TIP_AMOUNTS = ["5.00", "5", "0", "-1", "5.001", "x"]
DATES = ["2026-11-20", "2026-02-30", "2026-13-01", "2026/11/20", "20-11-2026", "2024-02-29", "2025-02-29", "0000-01-01",
         "9999-12-31", "2026-1-5"]
LEFTOVERS = ["balanced", "remainder", "first", "payer", "to-tip", "balance", "Balanced", "random"]
ROUNDINGS = ["half-up", "half-even", "up", "down", "halfup", "nearest"]
WEIGHTS = ["1", "2", "1.5", "0", "-1", "0.0000001", "abc", "", "1,5", "3.25"]
KEYS = ["amount", "tip", "tip_amount", "currency", "diners", "paid_by", "date", "id", "leftover", "rounding",
        "notes", "description"]
TYPOS = ["ammount", "tipp", "diner", "paidby", "curency", "dates", "Amount", "x-extra", "leftovers", "zzz"]


def valid_bill(index):
    people = random.sample(PEOPLE, random.randint(1, 5))
    bill = {"id": "b%d" % index, "amount": random.choice(["84.50", "12.00", "7.35", "100.01", "3000"]),
            "currency": random.choice(["EUR", "USD", "JPY", "KWD"])}
    if bill["currency"] == "JPY":
        bill["amount"] = str(random.randint(800, 90000))
    if bill["currency"] == "KWD":
        bill["amount"] = "%d.%03d" % (random.randint(1, 99), random.randint(0, 999))
    shape = random.random()
    if shape < 0.2:
        bill["diners"] = ("count", str(random.randint(1, 9)))
    elif shape < 0.5:
        bill["diners"] = ("weights", [(p, random.choice(["1", "2", "1.5"])) for p in people])
    else:
        bill["diners"] = ("names", people)
    if random.random() < 0.2:
        bill["tip_amount"] = random.choice(["2.00", "0", "5"]) if bill["currency"] != "KWD" else "1.000"
    else:
        bill["tip"] = random.choice(["18", "15%", "12.5", "ai", "0", "20"])
    if random.random() < 0.7:
        bill["paid_by"] = random.choice(people) if bill["diners"][0] != "count" else random.choice(PEOPLE)
    if random.random() < 0.7:
        bill["date"] = "2026-%02d-%02d" % (random.randint(1, 12), random.randint(1, 28))
    if random.random() < 0.3:
        bill["leftover"] = random.choice(["balanced", "remainder", "first", "to-tip"])
    if random.random() < 0.2:
        bill["rounding"] = random.choice(["half-up", "half-even", "up", "down"])
    if random.random() < 0.3:
        bill["notes"] = random.choice(["Lovely waiter", 'Said "best", and it was', "slow\nkitchen", "plain"])
    return bill


def mutate(bill):
    """One mutation: a field's value, a key, or a field's shape."""
    kind = random.random()
    if kind < 0.08:
        bill["amount"] = random.choice(AMOUNTS)
    elif kind < 0.14:
        bill.pop("tip_amount", None)
        bill["tip"] = random.choice(TIPS)
    elif kind < 0.18:
        bill["tip_amount"] = random.choice(TIP_AMOUNTS)
    elif kind < 0.24:
        bill["currency"] = random.choice(CURRENCIES)
    elif kind < 0.30:
        bill["date"] = random.choice(DATES)
    elif kind < 0.34:
        bill["leftover"] = random.choice(LEFTOVERS)
    elif kind < 0.37:
        bill["rounding"] = random.choice(ROUNDINGS)
    elif kind < 0.45:
        names = [random.choice(PEOPLE + ["", "Zed", "Chloe", "ana"]) for _ in range(random.randint(0, 6))]
        bill["diners"] = ("names", names)
    elif kind < 0.52:
        bill["diners"] = ("weights", [(random.choice(PEOPLE), random.choice(WEIGHTS)) for _ in range(random.randint(1, 5))])
    elif kind < 0.56:
        bill["diners"] = ("count", random.choice(["0", "-2", "3.5", "1000001", "two", "", "007", "+3"]))
    elif kind < 0.62:
        bill["paid_by"] = random.choice(PEOPLE + ["", "Zed", "Dmitry"])
    elif kind < 0.66:
        bill["leftover"] = "payer"
    elif kind < 0.70:
        bill.pop(random.choice(["amount", "diners", "tip", "tip_amount"]), None)
    elif kind < 0.74:
        bill[random.choice(TYPOS)] = "1"
    elif kind < 0.78:
        bill["id"] = random.choice(["", " ", "b1", "b2", "dup", "dup"])
    elif kind < 0.82:
        bill["tip"] = random.choice(TIPS)
        bill["tip_amount"] = "1.00"
    elif kind < 0.86:
        bill["__list__"] = random.choice(KEYS)
    elif kind < 0.90:
        bill["__repeat__"] = random.choice(KEYS)
    elif kind < 0.93:
        bill["__badutf8__"] = random.choice(["notes", "paid_by", "description", "id", "amount", "diners", "currency"])
    else:
        bill["__null__"] = random.choice(KEYS)
    return bill


def yaml_scalar(text):
    if random.random() < 0.5 and all(c.isalnum() or c in ".-%_ " for c in text) and text and text == text.strip():
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def yaml_bill(bill, anchors):
    lines = []
    first = True

    def put(key, value):
        nonlocal first
        lines.append(("  - " if first else "    ") + key + ": " + value)
        first = False

    for key, value in bill.items():
        if key.startswith("__"):
            continue
        if key == bill.get("__null__"):
            put(key, random.choice(["", "~", "null"]))
            continue
        if key == bill.get("__list__"):
            put(key, "[" + yaml_scalar(str(value if isinstance(value, str) else "x")) + ", b]")
            continue
        if key == "diners":
            shape, items = value
            if shape == "count":
                put(key, yaml_scalar(items) if items else '""')
            elif shape == "names":
                put(key, "[" + ", ".join(yaml_scalar(n) if n else '""' for n in items) + "]")
            else:
                put(key, "{" + ", ".join((yaml_scalar(n) if n.strip() else '""') + ": " + (w if w else "")
                                         for n, w in items) + "}")
            continue
        if key == bill.get("__badutf8__") and options.seed % 4 == 0:
            put(key, '"bad \\x' + "ff" + '"')  # an escaped byte: valid YAML, replaced below
            continue
        put(key, yaml_scalar(value))
    if "__repeat__" in bill:
        put(bill["__repeat__"], "1")
    if random.random() < 0.04 and anchors:
        put("<<", "*" + random.choice(anchors))
    return lines


def csv_cell(text):
    if any(c in text for c in ',"\n\r') or (text and text != text.strip()):
        return '"' + text.replace('"', '""') + '"'
    return text


def csv_value(bill, key):
    value = bill.get(key)
    if value is None:
        return ""
    if key == "diners":
        shape, items = value
        if shape == "count":
            return items
        if shape == "names":
            return ";".join(items)
        return ";".join(n + ":" + w for n, w in items)
    return value


bills = []
for index in range(1, options.bills + 1):
    bill = valid_bill(index)
    if random.random() < 0.45:
        bill = mutate(bill)
    bills.append(bill)

if options.yaml:
    out = ["version: 1", "defaults: {currency: EUR, tip: 18%, leftover: balanced}"]
    if options.roster:
        out.append("people: [" + ", ".join(ROSTER) + "]")
    out.append("x-common: &common {currency: EUR, tip: 10}")
    out.append("x-crew: &crew-name Dinner with the crew")
    out.append("bills:")
    anchors = ["common"]
    for number, bill in enumerate(bills):
        lines = yaml_bill(bill, anchors)
        if number % 40 == 7:
            lines.append("    description: *crew-name")
        out.extend(lines)
    text = "\n".join(out) + "\n"
    data = text.encode("utf-8").replace(b"bad \\xff", b"bad \xff")
    with open(options.yaml, "wb") as handle:
        handle.write(data)

if options.csv:
    columns = ["id", "date", "amount", "currency", "tip", "tip_amount", "diners", "paid_by", "leftover", "rounding",
               "notes"]
    rows = [",".join(columns)]
    for bill in bills:
        cells = []
        for key in columns:
            if key == bill.get("__badutf8__"):
                cells.append("BADUTF8")
                continue
            cells.append(csv_cell(csv_value(bill, key)))
        if random.random() < 0.02:
            cells.pop()
        if random.random() < 0.01:
            cells[2] = 'x"y'
        rows.append(",".join(cells))
    data = ("\r\n" if options.seed % 2 else "\n").join(rows).encode("utf-8") + b"\n"
    data = data.replace(b"BADUTF8", b"bad \xff")
    with open(options.csv, "wb") as handle:
        handle.write(data)
