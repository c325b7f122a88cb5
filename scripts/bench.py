#!/usr/bin/env python3
"""splitbill's benchmark: release binary against the references, with medians, ratios and peak RSS.

Run it through scripts/bench.sh (which builds everything first). For each size it generates a seeded
trip as YAML and CSV (the same bills), then times, several runs each (in rounds: every command once
per round, so references and splitbill are timed side by side):
  references  libyaml_floor (pulls every libyaml event, discards it), `mlr --icsv --ojson cat`, `wc -l`
  splitbill   report --format json -o /dev/null, report --format text, check; for YAML and CSV;
              every other report format on the CSV
and checks correctness: both reports reconcile, and the YAML and CSV reports have identical bills.
Also `import splitwise` of a generated 10,000-row export (scripts/generate_splitwise.py), checked
against the export's own Total balance rows, and `--settle-in` over many distinct rates (a year of
daily rates in ~26 currencies, 60 people: under a second).
Targets (issue 6): YAML JSON report <= 1.3 x floor; CSV JSON report <= 0.5 x mlr; peak RSS <= 32 MB;
time linear in bills; check no slower than report --format json. Issue 14: every report format
within 2 x the JSON report's time.
"""
import argparse
import csv
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--binary", required=True)
parser.add_argument("--floor", required=True)
parser.add_argument("--sizes", default="200000,1000000")
parser.add_argument("--runs", type=int, default=3)
parser.add_argument("--work", default=".build/bench")
parser.add_argument("--output", default=".build/bench/results.md")
parser.add_argument("--formats", default="csv,markdown,html,hledger,ledger,beancount",
                    help="report formats besides json and text timed on the CSV input (each must take at most "
                         "2 x the JSON report); 'none' for none")
parser.add_argument("--itemized-bills", type=int, default=20000,
                    help="bills in the itemized-receipts measurement (a third of them receipts); 0 to skip")
parser.add_argument("--settle-in", action=argparse.BooleanOptionalAction, default=True,
                    help="time `report --settle-in EUR` on the smallest size's CSV with a year of daily rates "
                         "(scripts/generate_rates.py), checked: converted balances add up to zero and the "
                         "transfers settle them")
parser.add_argument("--ecb-history", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                                          "shared", "realdata", "ecb", "h0tbird_eurofxref-hist.csv"),
                    help="the ECB's eurofxref-hist.csv as published, read whole by a small --settle-in run "
                         "(issue 28: <= 0.1 s, <= 30 MB); when absent, a generated one of its shape "
                         "(scripts/generate_rates.py --history)")
parser.add_argument("--import-rows", type=int, default=10000,
                    help="rows of the generated Splitwise export `import splitwise` is timed on (issue 19: <= 1 s)")
options = parser.parse_args()
here = os.path.dirname(os.path.abspath(__file__))
os.makedirs(options.work, exist_ok=True)


RSS_FILE = os.path.join(options.work, "rss.txt")


def measure(command, stdout=subprocess.DEVNULL):
    """Wall time in seconds and peak RSS in MiB of one run; fails loudly on a non-zero exit.

    Peak RSS comes from GNU time (`/usr/bin/time -f %M`): a child forked from this Python process
    would report Python's own high-water mark from before its exec.
    """
    start = time.perf_counter()
    code = subprocess.call(["/usr/bin/time", "-o", RSS_FILE, "-f", "%M"] + command, stdout=stdout,
                           stderr=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    if code != 0:
        sys.exit("benchmark: %s exited %d" % (" ".join(command), code))
    with open(RSS_FILE) as handle:
        kilobytes = int(handle.read().split()[-1])
    return elapsed, kilobytes / 1024


def medians_of(commands, runs):
    """Median time and largest peak RSS of each command, the commands run in rounds (each once per
    round, in order) rather than one after the other: the machine's speed drifts from minute to
    minute, and a ratio is only fair between runs taken at the same time."""
    times = {name: [] for name in commands}
    peaks = {name: 0.0 for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            seconds, rss = measure(command)
            times[name].append(seconds)
            peaks[name] = max(peaks[name], rss)
    return {name: (statistics.median(times[name]), peaks[name]) for name in commands}


def files(size):
    # v2: with payments and bills two people paid (the generator's output before them was v1).
    yaml_path = os.path.join(options.work, "bills-v2-%d.yaml" % size)
    csv_path = os.path.join(options.work, "bills-v2-%d.csv" % size)
    payments_path = os.path.join(options.work, "payments-v2-%d.csv" % size)
    if not all(os.path.exists(path) for path in (yaml_path, csv_path, payments_path)):
        subprocess.run([sys.executable, os.path.join(here, "generate_bills.py"), "--bills", str(size), "--seed", "7",
                        "--yaml", yaml_path, "--csv", csv_path, "--payments-csv", payments_path], check=True)
    return yaml_path, csv_path, payments_path


def check_correctness(yaml_inputs, csv_inputs):
    reports = []
    for inputs in (yaml_inputs, csv_inputs):
        out = os.path.join(options.work, os.path.basename(inputs[0]) + ".json")
        subprocess.run([options.binary, "report"] + inputs + ["--format", "json", "-o", out], check=True,
                       stderr=subprocess.DEVNULL)
        with open(out) as handle:
            report = json.load(handle)
        if report.get("reconciled") is not True:
            sys.exit("benchmark: %s does not reconcile" % inputs[0])
        for bill in report["bills"]:
            bill.pop("source")
        reports.append(report)
        os.remove(out)
    if reports[0]["bills"] != reports[1]["bills"]:
        sys.exit("benchmark: the YAML and CSV reports differ")
    if reports[0]["people"] != reports[1]["people"] or reports[0]["settlements"] != reports[1]["settlements"]:
        sys.exit("benchmark: the YAML and CSV summaries differ")
    if [{k: v for k, v in p.items() if k != "source"} for p in reports[0]["payments"]] != \
            [{k: v for k, v in p.items() if k != "source"} for p in reports[1]["payments"]]:
        sys.exit("benchmark: the YAML and CSV payments differ")
    return len(reports[0]["bills"])


rows = []
verdicts = []
per_size = {}
for size in [int(s) for s in options.sizes.split(",")]:
    yaml_path, csv_path, payments_path = files(size)
    inputs = {"YAML": [yaml_path], "CSV": [csv_path, payments_path]}
    bills = check_correctness(inputs["YAML"], inputs["CSV"])
    b = options.binary
    commands = {
        "libyaml floor (YAML)": [options.floor, yaml_path],
        "wc -l (YAML)": ["wc", "-l", yaml_path],
        "mlr --icsv --ojson cat (CSV)": ["mlr", "--icsv", "--ojson", "cat", csv_path],
        "wc -l (CSV)": ["wc", "-l", csv_path],
    }
    for label, paths in inputs.items():
        commands["report json (%s)" % label] = [b, "report"] + paths + ["--format", "json", "-o", "/dev/null"]
        commands["report text (%s)" % label] = [b, "report"] + paths + ["--format", "text", "-o", "/dev/null"]
        commands["check (%s)" % label] = [b, "check"] + paths + ["--format", "json"]
    formats = [] if options.formats == "none" else options.formats.split(",")
    for format in formats:
        commands["report %s (CSV)" % format] = [b, "report"] + inputs["CSV"] + ["--format", format, "-o", "/dev/null"]
    results = medians_of(commands, options.runs)
    per_size[size] = results
    floor = results["libyaml floor (YAML)"][0]
    mlr = results["mlr --icsv --ojson cat (CSV)"][0]
    for name, (seconds, rss) in results.items():
        ratio = ""
        if "(YAML)" in name and "floor" not in name:
            ratio = "%.2f x floor" % (seconds / floor)
        if "(CSV)" in name and "mlr" not in name:
            ratio = "%.2f x mlr" % (seconds / mlr)
        rows.append("| %d | %s | %.3f | %s | %.1f |" % (size, name, seconds, ratio, rss))
    yaml_json = results["report json (YAML)"][0]
    csv_json = results["report json (CSV)"][0]
    verdicts.append(("%d: YAML JSON report <= 1.3 x libyaml floor" % size, yaml_json <= 1.3 * floor,
                     "%.2f x" % (yaml_json / floor)))
    verdicts.append(("%d: CSV JSON report <= 0.5 x mlr" % size, csv_json <= 0.5 * mlr, "%.2f x" % (csv_json / mlr)))
    peak = max(rss for name, (_, rss) in results.items() if not name.startswith(("libyaml", "wc", "mlr")))
    verdicts.append(("%d: peak RSS <= 32 MB" % size, peak <= 32, "%.1f MiB" % peak))
    for label in ("YAML", "CSV"):
        check_time = results["check (%s)" % label][0]
        report_time = results["report json (%s)" % label][0]
        verdicts.append(("%d: check no slower than report json (%s)" % (size, label), check_time <= report_time * 1.05,
                         "%.2f s vs %.2f s" % (check_time, report_time)))
    # A ledger converter's main output must not be its slowest (issue 14): every format within
    # twice the JSON report's time on the same input.
    for format in ["text"] + formats:
        seconds = results["report %s (CSV)" % format][0]
        verdicts.append(("%d: %s report <= 2 x JSON report (CSV)" % (size, format), seconds <= 2 * csv_json,
                         "%.2f x" % (seconds / csv_json)))
    print("measured %d bills (%d in the reports)" % (size, bills), file=sys.stderr)

# Itemized receipts (issue 17): a trip where a third of the bills with named diners are receipts
# of 3 to 10 lines (tax, discount, service, tip_on), the same in YAML and in CSV with its items file;
# the two reports must agree bill for bill, and the JSON report stays within 2 x the libyaml floor
# on the same file (a receipt carries its lines as text: reading it is the scale, as for plain bills).
if options.itemized_bills:
    size = options.itemized_bills
    yaml_path = os.path.join(options.work, "receipts-v1-%d.yaml" % size)
    csv_path = os.path.join(options.work, "receipts-v1-%d.csv" % size)
    items_path = os.path.join(options.work, "receipts-v1-%d.items.csv" % size)
    if not all(os.path.exists(path) for path in (yaml_path, csv_path, items_path)):
        subprocess.run([sys.executable, os.path.join(here, "generate_bills.py"), "--bills", str(size), "--seed", "7",
                        "--itemized", "0.33", "--yaml", yaml_path, "--csv", csv_path, "--items-csv", items_path],
                       check=True)
    reports = []
    for path in (yaml_path, csv_path):
        report = json.loads(subprocess.run([options.binary, "report", path, "--format", "json"], check=True,
                                           stdout=subprocess.PIPE).stdout)
        if report.get("reconciled") is not True:
            sys.exit("benchmark: %s does not reconcile" % path)
        for bill in report["bills"]:
            bill.pop("source")
        reports.append(report)
    if reports[0]["bills"] != reports[1]["bills"] or len(reports[0]["bills"]) != size:
        sys.exit("benchmark: the itemized YAML and CSV reports differ")
    receipts = sum(1 for bill in reports[0]["bills"] if "items" in bill)
    commands = {
        "libyaml floor (YAML, %d receipts)" % receipts: [options.floor, yaml_path],
        "report json (YAML, %d receipts)" % receipts: [options.binary, "report", yaml_path, "--format", "json", "-o",
                                                       "/dev/null"],
        "report json (CSV + items file, %d receipts)" % receipts: [options.binary, "report", csv_path, "--format",
                                                                   "json", "-o", "/dev/null"],
    }
    results = medians_of(commands, options.runs)
    for name, (seconds, rss) in results.items():
        rows.append("| %d | %s | %.3f |  | %.1f |" % (size, name, seconds, rss))
    floor = results["libyaml floor (YAML, %d receipts)" % receipts][0]
    itemized = results["report json (YAML, %d receipts)" % receipts][0]
    verdicts.append(("itemized YAML JSON report <= 2 x libyaml floor (same file)", itemized <= 2 * floor,
                     "%.2f x" % (itemized / floor)))
    smallest = min(per_size) if per_size else None
    if smallest:
        plain = per_size[smallest]["report json (YAML)"][0] / smallest
        rows.append("|  | (a bill of that trip costs %.2f x a plain bill of the %d-bill trip) |  |  |  |" % (
            itemized / size / plain, smallest))

# One settlement currency (issue 18): the smallest size's CSV trip (five currencies over 2026) with
# a year of ECB-shaped daily rates, a distinct rate each business day (the worst case for the exact
# conversion). Checked: the converted balances add up to zero and the transfers, all in EUR, bring
# them to zero. Target: within 1.6 x the plain JSON report of the same input.
if options.settle_in and per_size:
    size = min(per_size)
    _, csv_path, payments_path = files(size)
    rates_path = os.path.join(options.work, "rates-2026.csv")
    if not os.path.exists(rates_path):
        with open(rates_path, "w") as handle:
            subprocess.run([sys.executable, os.path.join(here, "generate_rates.py"), "--from", "2025-12-01",
                            "--to", "2026-12-31", "--seed", "7"], check=True, stdout=handle)
    settle = [options.binary, "report", csv_path, payments_path, "--settle-in", "EUR", "--rates", rates_path,
              "--format", "json"]
    report = json.loads(subprocess.run(settle, check=True, stdout=subprocess.PIPE).stdout)
    conversion = report.get("conversion") or sys.exit("benchmark: --settle-in gave no conversion")
    cents = {b["person"]: round(float(b["balance"]) * 100) for b in conversion["balances"]}
    if sum(cents.values()) != 0:
        sys.exit("benchmark: the converted balances do not add up to zero")
    for transfer in report["settlements"]:
        if transfer["currency"] != "EUR":
            sys.exit("benchmark: a transfer not in EUR")
        cents[transfer["from"]] += round(float(transfer["amount"]) * 100)
        cents[transfer["to"]] -= round(float(transfer["amount"]) * 100)
    if any(cents.values()):
        sys.exit("benchmark: the transfers do not settle the converted balances")
    name = "report json --settle-in EUR (CSV, %d rates)" % len(conversion["rates"])
    seconds, rss = medians_of({name: settle[:-2] + ["--format", "json", "-o", "/dev/null"]}, options.runs)[name]
    plain = per_size[size]["report json (CSV)"][0]
    rows.append("| %d | %s | %.3f | %.2f x plain | %.1f |" % (size, name, seconds, seconds / plain, rss))
    verdicts.append(("%d: --settle-in JSON report <= 1.6 x plain JSON report (CSV)" % size, seconds <= 1.6 * plain,
                     "%.2f x" % (seconds / plain)))

# Many distinct rates in many currencies (issue 33): a year of ECB-shaped daily rates in the history's
# currencies (about 26 quoted in 2025) and, each business day, a bill in each of them among 60
# people, settled in EUR: some 6,700 distinct rates. The exact sums' denominators grow with every
# rate; the fixed-point sums do not. Target: under a second.
if options.settle_in:
    year_rates = os.path.join(options.work, "rates-history-2025.csv")
    if not os.path.exists(year_rates):
        with open(year_rates, "w") as handle:
            subprocess.run([sys.executable, os.path.join(here, "generate_rates.py"), "--history", "--from",
                            "2025-01-01", "--to", "2025-12-31", "--seed", "3"], check=True, stdout=handle)
    many_rates_trip = os.path.join(options.work, "trip-many-rates.yaml")
    if not os.path.exists(many_rates_trip):
        rng = random.Random(1)
        names = ["P%02d" % number for number in range(60)]
        with open(year_rates) as handle:
            rate_rows = list(csv.reader(handle))
        with open(many_rates_trip, "w") as handle:
            handle.write("people: [%s]\nbills:\n" % ", ".join(names))
            count = 0
            for row in rate_rows[1:]:
                for code, cell in zip(rate_rows[0][1:], row[1:]):
                    if not code or cell in ("", "N/A"):
                        continue
                    count += 1
                    diners = rng.sample(names, rng.randint(2, 6))
                    amount = "%d" % rng.randint(100, 50000) if code in ("JPY", "HUF", "ISK", "KRW", "IDR") else \
                        "%d.%02d" % (rng.randint(1, 500), rng.randint(0, 99))
                    handle.write("  - {id: b%d, date: %s, amount: %s, currency: %s, diners: [%s], paid_by: %s, tip: 0}\n"
                                 % (count, row[0], amount, code, ", ".join(diners), rng.choice(diners)))
    many_rates = [options.binary, "report", many_rates_trip, "--settle-in", "EUR", "--rates", year_rates,
                  "--format", "json"]
    report = json.loads(subprocess.run(many_rates, check=True, stdout=subprocess.PIPE).stdout)
    conversion = report.get("conversion") or sys.exit("benchmark: the many-rates trip gave no conversion")
    if sum(round(float(b["balance"]) * 100) for b in conversion["balances"]) != 0:
        sys.exit("benchmark: the many-rates trip's converted balances do not add up to zero")
    name = "report --settle-in EUR, 60 people, a year of daily rates (%d rates)" % len(conversion["rates"])
    seconds, rss = medians_of({name: many_rates[:-2] + ["--format", "json", "-o", "/dev/null"]}, options.runs)[name]
    rows.append("| %d | %s | %.3f |  | %.1f |" % (len(report["bills"]), name, seconds, rss))
    verdicts.append(("a year of daily rates in ~26 currencies, 60 people, --settle-in <= 1 s", seconds <= 1.0,
                     "%.3f s" % seconds))

# The ECB's published history (issue 28): 1.9 MB, 41 columns, withdrawn currencies among them, read
# by a run that converts a few bills in three of its currencies. Checked: exit 0 (no error for a
# withdrawn currency) and the bills converted. Targets: <= 0.1 s and <= 30 MB peak RSS.
history = options.ecb_history
if not os.path.exists(history):
    history = os.path.join(options.work, "eurofxref-hist-generated.csv")
    if not os.path.exists(history):
        with open(history, "w") as handle:
            subprocess.run([sys.executable, os.path.join(here, "generate_rates.py"), "--history", "--from",
                            "1999-01-04", "--to", "2025-05-09", "--seed", "7"], check=True, stdout=handle)
small_trip = os.path.join(options.work, "ecb-trip.yaml")
with open(small_trip, "w") as handle:
    handle.write("people: [Ana, Ben]\nbills:\n"
                 "  - {id: a, date: 2021-03-06, amount: 300, currency: HRK, diners: [Ana, Ben], paid_by: Ana, tip: 0}\n"
                 "  - {id: b, date: 2024-05-02, amount: 3000, currency: JPY, diners: [Ana, Ben], paid_by: Ben, tip: 0}\n"
                 "  - {id: c, date: 2025-05-06, amount: 30.00, currency: USD, diners: [Ana, Ben], paid_by: Ana, tip: 0}\n")
ecb_run = [options.binary, "report", small_trip, "--settle-in", "EUR", "--rates", history, "--format", "json"]
ecb_report = json.loads(subprocess.run(ecb_run, check=True, stdout=subprocess.PIPE).stdout)
if (ecb_report.get("conversion") or {}).get("converted_records") != 3:
    sys.exit("benchmark: the ECB history did not convert the three bills")
name = "report --settle-in EUR --rates %s (3 bills)" % os.path.basename(history)
seconds, rss = medians_of({name: ecb_run[:-2] + ["--format", "json", "-o", "/dev/null"]}, options.runs)[name]
rows.append("| 3 | %s | %.3f |  | %.1f |" % (name, seconds, rss))
verdicts.append(("ECB history read by a small --settle-in run <= 0.1 s", seconds <= 0.1, "%.3f s" % seconds))
verdicts.append(("ECB history read by a small --settle-in run <= 30 MB", rss <= 30, "%.1f MB" % rss))

# `import splitwise` (issue 19): a generated export imported within a second, its balances those of
# the export's Total balance rows once reported.
export = os.path.join(options.work, "splitwise-%d.csv" % options.import_rows)
totals_path = export + ".totals.json"
if not (os.path.exists(export) and os.path.exists(totals_path)):
    subprocess.run([sys.executable, os.path.join(here, "generate_splitwise.py"), "--rows", str(options.import_rows),
                    "--seed", "7", "--output", export, "--totals-json", totals_path], check=True)
imported = os.path.join(options.work, "splitwise-%d.yaml" % options.import_rows)
subprocess.run([options.binary, "import", "splitwise", export, "-o", imported, "--force", "--quiet"], check=True)
report = json.loads(subprocess.run([options.binary, "report", imported, "--format", "json"], check=True,
                                   stdout=subprocess.PIPE).stdout)
with open(totals_path) as handle:
    totals = json.load(handle)
if any(totals[p["currency"]][p["person"]] != p["balance"] for p in report["people"]):
    sys.exit("benchmark: the imported Splitwise export's balances differ from its Total balance rows")
os.remove(imported)
name = "import splitwise (%d rows)" % options.import_rows
seconds, rss = medians_of({name: [options.binary, "import", "splitwise", export, "--quiet"]}, options.runs)[name]
rows.append("| %d | %s | %.3f |  | %.1f |" % (options.import_rows, name, seconds, rss))
verdicts.append(("import splitwise of %d rows <= 1 s" % options.import_rows, seconds <= 1.0, "%.2f s" % seconds))

sizes = sorted(per_size)
if len(sizes) >= 2:
    small, large = sizes[0], sizes[-1]
    for label in ("YAML", "CSV"):
        key = "report json (%s)" % label
        growth = per_size[large][key][0] / per_size[small][key][0]
        expected = large / small
        verdicts.append(("%s time linear from %d to %d bills" % (label, small, large), growth <= expected * 1.25,
                         "%.2f x time for %.1f x bills" % (growth, expected)))

machine = "%s, %d cores, %s" % (platform.machine(), os.cpu_count() or 0, platform.platform())
try:
    with open("/proc/cpuinfo") as cpuinfo:
        model = next(line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name"))
    machine += ", " + model
except (OSError, StopIteration):
    pass
lines = [
    "Machine: %s" % machine,
    "Runs per measurement: %d, in rounds of every command once (median time; largest peak RSS)" % options.runs,
    "",
    "| bills | command | median s | ratio | peak RSS MiB |",
    "|---:|---|---:|---|---:|",
] + rows + ["", "| target | met | measured |", "|---|---|---|"] + [
    "| %s | %s | %s |" % (name, "yes" if ok else "**no**", value) for name, ok, value in verdicts]
text = "\n".join(lines) + "\n"
with open(options.output, "w") as out:
    out.write(text)
print(text)
