#!/usr/bin/env python3
"""Seeded generator of realistic splitbill bill files, for the benchmark.

    scripts/generate_bills.py --bills 200000 --seed 7 --yaml out.yaml --csv out.csv --payments-csv pay.csv

Both describe the same trip, bill for bill: named diners with and without weights, head counts,
several currencies (EUR, USD, JPY, KWD, GBP), payers (now and then two, sharing the total), fixed
tips and percentages, notes with quotes, commas and newlines; and settle-up payments (one for
about every 50 bills), in the YAML file's payments list and in a CSV payments file of their own.
Ids are unique; dates cover 2026.
"""
import argparse
import random
from decimal import Decimal

parser = argparse.ArgumentParser()
parser.add_argument("--bills", type=int, required=True)
parser.add_argument("--seed", type=int, default=7)
parser.add_argument("--yaml")
parser.add_argument("--csv")
parser.add_argument("--payments-csv")
options = parser.parse_args()

random.seed(options.seed)
PEOPLE = ["Ana", "Ben", "Chloé", "Dmitri", "Émile", "Farah", "Gus", "Hiro", "Ines", "Jon", "Kenji", "Lea"]
CURRENCIES = [("EUR", 2), ("USD", 2), ("JPY", 0), ("KWD", 3), ("GBP", 2)]
PLACES = ["Cervejaria", "Trattoria Roma", "Izakaya Tanuki", "Café Lumière", "Taquería", "Brasserie", "Noodle bar"]
NOTES = [
    "", "", "", "Lovely waiter, slow kitchen", 'Said "best paella in town", and it was',
    "Great view, friendly staff; the manager apologised for a wrong order",
    "Waited 40 minutes\nbut the food was excellent", "Not great, cold soup, rude host",
]


def amount(exponent):
    units = random.randint(500, 40000) * (1 if exponent else 1)
    if exponent == 0:
        return str(random.randint(800, 90000))
    if exponent == 3:
        return "%d.%03d" % (random.randint(1, 120), random.randint(0, 999))
    return "%d.%02d" % (units // 100, units % 100)


def yaml_text(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def csv_cell(text):
    if any(c in text for c in ',"\n\r'):
        return '"' + text.replace('"', '""') + '"'
    return text


def units(text, exponent):
    return int(Decimal(text.rstrip("%")) * 10 ** exponent)


def text(units, exponent):
    if exponent == 0:
        return str(units)
    return "%d.%0*d" % (units // 10 ** exponent, exponent, units % 10 ** exponent)


def total(bill, exponent):
    """The bill's total as splitbill works it out: the tip rounded half-up to the minor unit."""
    amount = units(bill["amount"], exponent)
    if bill["tip_amount"] is not None:
        return amount + units(bill["tip_amount"], exponent)
    percent = int(Decimal(bill["tip"].rstrip("%")) * 10000)
    return amount + (amount * percent + 500000) // 1000000


bills = []
payments = []
for index in range(options.bills):
    currency, exponent = random.choice(CURRENCIES)
    kind = random.random()
    people = random.sample(PEOPLE, random.randint(2, 6))
    if kind < 0.15:
        diners = ("count", random.randint(2, 8))
    elif kind < 0.45:
        diners = ("weights", [(p, random.choice(["1", "1", "2", "1.5"])) for p in people])
    else:
        diners = ("names", people)
    tip_kind = random.random()
    tip = None
    tip_amount = None
    if tip_kind < 0.1:
        tip_amount = amount(exponent) if exponent != 3 else "%d.%03d" % (random.randint(0, 5), random.randint(0, 999))
        if exponent == 0:
            tip_amount = str(random.randint(0, 2000))
        elif exponent == 2:
            tip_amount = "%d.%02d" % (random.randint(0, 20), random.randint(0, 99))
    else:
        tip = random.choice(["0", "10", "12.5", "15%", "18", "20"])
    bills.append({
        "id": "b%07d" % index,
        "date": "2026-%02d-%02d" % (random.randint(1, 12), random.randint(1, 28)),
        "description": "%s #%d" % (random.choice(PLACES), index),
        "amount": amount(exponent),
        "currency": currency,
        "tip": tip,
        "tip_amount": tip_amount,
        "diners": diners,
        "paid_by": random.choice(people) if diners[0] != "count" or random.random() < 0.5 else None,
        "notes": random.choice(NOTES),
        "leftover": random.choice([None, None, None, "remainder", "first", "to-tip"]),
    })
    bill = bills[-1]
    # Now and then two payers share the total (not under to-tip, whose surplus comes with the split).
    if diners[0] != "count" and bill["leftover"] != "to-tip" and random.random() < 0.05:
        whole = total(bill, exponent)
        first = random.randint(0, whole)
        bill["paid_by"] = [(people[0], text(first, exponent)), (people[1], text(whole - first, exponent))]
    if random.random() < 0.02:
        giver, taker = random.sample(PEOPLE, 2)
        payments.append({
            "id": "p%07d" % index, "date": bill["date"], "from": giver, "to": taker,
            "amount": amount(exponent), "currency": currency,
        })

if options.yaml:
    with open(options.yaml, "w") as out:
        out.write("version: 1\nbills:\n")
        for bill in bills:
            out.write("  - id: %s\n    date: %s\n    description: %s\n    amount: %s\n    currency: %s\n" % (
                bill["id"], bill["date"], yaml_text(bill["description"]), bill["amount"], bill["currency"]))
            if bill["tip"] is not None:
                out.write("    tip: %s\n" % yaml_text(bill["tip"]))
            if bill["tip_amount"] is not None:
                out.write("    tip_amount: %s\n" % bill["tip_amount"])
            kind, value = bill["diners"]
            if kind == "count":
                out.write("    diners: %d\n" % value)
            elif kind == "names":
                out.write("    diners: [%s]\n" % ", ".join(value))
            else:
                out.write("    diners: {%s}\n" % ", ".join("%s: %s" % pair for pair in value))
            if isinstance(bill["paid_by"], list):
                out.write("    paid_by: {%s}\n" % ", ".join("%s: %s" % pair for pair in bill["paid_by"]))
            elif bill["paid_by"]:
                out.write("    paid_by: %s\n" % bill["paid_by"])
            if bill["notes"]:
                out.write("    notes: %s\n" % yaml_text(bill["notes"]))
            if bill["leftover"]:
                out.write("    leftover: %s\n" % bill["leftover"])
        if payments:
            out.write("payments:\n")
            for payment in payments:
                out.write("  - {id: %(id)s, date: %(date)s, from: %(from)s, to: %(to)s, amount: %(amount)s, "
                          "currency: %(currency)s}\n" % payment)

if options.csv:
    with open(options.csv, "w", newline="") as out:
        out.write("id,date,description,amount,currency,tip,tip_amount,diners,paid_by,notes,leftover\n")
        for bill in bills:
            kind, value = bill["diners"]
            if kind == "count":
                diners = str(value)
            elif kind == "names":
                diners = ";".join(value)
            else:
                diners = ";".join("%s:%s" % pair for pair in value)
            paid_by = bill["paid_by"] or ""
            if isinstance(paid_by, list):
                paid_by = ";".join("%s:%s" % pair for pair in paid_by)
            cells = [bill["id"], bill["date"], bill["description"], bill["amount"], bill["currency"],
                     bill["tip"] or "", bill["tip_amount"] or "", diners, paid_by, bill["notes"],
                     bill["leftover"] or ""]
            out.write(",".join(csv_cell(cell) for cell in cells) + "\n")

if options.payments_csv:
    with open(options.payments_csv, "w", newline="") as out:
        out.write("id,date,from,to,amount,currency\n")
        for payment in payments:
            out.write("%(id)s,%(date)s,%(from)s,%(to)s,%(amount)s,%(currency)s\n" % payment)
