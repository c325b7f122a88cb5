#!/usr/bin/env python3
"""Seeded generator of realistic splitbill bill files, for the benchmark.

    scripts/generate_bills.py --bills 200000 --seed 7 --yaml out.yaml --csv out.csv --payments-csv pay.csv

Both describe the same trip, bill for bill: named diners with and without weights, head counts,
several currencies (EUR, USD, JPY, KWD, GBP), payers (now and then two, sharing the total), fixed
tips and percentages, notes with quotes, commas and newlines; and settle-up payments (one for
about every 50 bills), in the YAML file's payments list and in a CSV payments file of their own.
Ids are unique; dates cover 2026.

With --itemized F, about that fraction of the bills with named diners are itemized receipts
instead (3 to 10 lines, shared by random subsets with weights now and then, a quantity now and
then; tax added or included, a discount, a service charge, tip_on), written as YAML items and, in
CSV, as rows of --items-csv (the bills file then has the receipt columns). Without it the output
is what it was, byte for byte.
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
parser.add_argument("--itemized", type=float, default=0.0)
parser.add_argument("--items-csv")
options = parser.parse_args()
if options.itemized and options.csv and not options.items_csv:
    parser.error("--itemized with --csv needs --items-csv (the bills file's items file)")
DISHES = ["Burrata", "Pasta", "Steak frites", "Salad", "Wine (bottle)", "Beer", "Tiramisu", "Espresso", "Soup",
          "Kids' menu", "Bread", "Fries"]

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
    bill["receipt"] = None
    if options.itemized and diners[0] != "count" and random.random() < options.itemized:
        names = [d if isinstance(d, str) else d[0] for d in diners[1]]
        lines = []
        for _ in range(random.randint(3, 10)):
            price = amount(exponent) if exponent != 2 else "%d.%02d" % (random.randint(2, 60), random.randint(0, 99))
            share = random.random()
            if share < 0.3:
                sharers = None
            elif share < 0.85:
                sharers = [(n, None) for n in random.sample(names, random.randint(1, len(names)))]
            else:
                sharers = [(n, random.choice(["1", "2"])) for n in random.sample(names, random.randint(1, len(names)))]
            lines.append({"name": random.choice(DISHES), "price": price,
                          "quantity": random.choice([None, None, None, "2", "3"]), "for": sharers})
        bill["receipt"] = {
            "items": lines,
            "tax": random.choice([None, "8.875%", "10%", "20%", "7%"]),
            "tax_included": random.random() < 0.3,
            "discount": random.choice([None, None, None, "10%", "5%"]),
            "service": random.choice([None, None, "12.5%", "10%"]),
            "tip_on": random.choice([None, None, "subtotal", "total"]),
        }
        bill["amount"] = None
    # Now and then two payers share the total (not under to-tip, whose surplus comes with the split).
    if diners[0] != "count" and bill["leftover"] != "to-tip" and bill["receipt"] is None and random.random() < 0.05:
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
            out.write("  - id: %s\n    date: %s\n    description: %s\n" % (
                bill["id"], bill["date"], yaml_text(bill["description"])))
            if bill["amount"] is not None:
                out.write("    amount: %s\n" % bill["amount"])
            out.write("    currency: %s\n" % bill["currency"])
            receipt = bill["receipt"]
            if receipt:
                for key in ("tax", "discount", "service", "tip_on"):
                    if receipt[key]:
                        out.write("    %s: %s\n" % (key, receipt[key]))
                if receipt["tax_included"]:
                    out.write("    tax_included: true\n")
                out.write("    items:\n")
                for line in receipt["items"]:
                    out.write("      - {name: %s, price: %s" % (yaml_text(line["name"]), line["price"]))
                    if line["quantity"]:
                        out.write(", quantity: %s" % line["quantity"])
                    if line["for"]:
                        if any(w for _, w in line["for"]):
                            out.write(", for: {%s}" % ", ".join("%s: %s" % (n, w or "1") for n, w in line["for"]))
                        else:
                            out.write(", for: [%s]" % ", ".join(n for n, _ in line["for"]))
                    out.write("}\n")
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
        receipts = any(bill["receipt"] for bill in bills)
        out.write("id,date,description,amount,currency,tip,tip_amount,diners,paid_by,notes,leftover"
                  + (",tax,tax_included,discount,service,tip_on" if receipts else "") + "\n")
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
            cells[3] = bill["amount"] or ""
            if receipts:
                receipt = bill["receipt"] or {}
                cells += [receipt.get("tax") or "", "true" if receipt.get("tax_included") else "",
                          receipt.get("discount") or "", receipt.get("service") or "", receipt.get("tip_on") or ""]
            out.write(",".join(csv_cell(cell) for cell in cells) + "\n")
    if options.items_csv:
        with open(options.items_csv, "w", newline="") as out:
            out.write("bill,name,price,quantity,for\n")
            for bill in bills:
                for line in (bill["receipt"] or {}).get("items", []):
                    sharers = ";".join(n + (":" + w if w else "") for n, w in line["for"]) if line["for"] else ""
                    out.write(",".join(csv_cell(c) for c in [bill["id"], line["name"], line["price"],
                                                             line["quantity"] or "", sharers]) + "\n")

if options.payments_csv:
    with open(options.payments_csv, "w", newline="") as out:
        out.write("id,date,from,to,amount,currency\n")
        for payment in payments:
            out.write("%(id)s,%(date)s,%(from)s,%(to)s,%(amount)s,%(currency)s\n" % payment)
