#!/usr/bin/env python3
"""Times `splitbill balance` on a year of a shared flat's books: the shell-prompt case.

Usage: scripts/balance_bench.py BINARY [RUNS]

Writes a deterministic year (2026) for three people into a temporary directory: a monthly rent and
two utilities written once with `repeat:`, groceries twice a week, a takeaway a week, cleaning
supplies every other week, a monthly internet bill in a CSV file, and a settling payment each month
(about 250 records in two files), then runs `BINARY balance Maya DIR` RUNS times (default 30)
after two warm-up runs, and prints the median, the 90th percentile and the slowest wall time.
The bound the issue sets is 50 ms.
"""
import os, random, statistics, subprocess, sys, tempfile, time

def write_books(directory):
    rng = random.Random(2026)
    people = ["Maya", "Jonas", "Ines"]
    lines = ["version: 1", "people: [Maya, Jonas, Ines]", "defaults: {currency: EUR, tip: 0}", "bills:",
             "  - {id: rent, date: 2026-01-31, amount: 1500.00, diners: [Maya, Jonas, Ines], paid_by: Maya,",
             "     category: rent, repeat: {every: month, until: 2026-12-31}}",
             "  - {id: power, date: 2026-01-15, amount: 64.20, diners: [Maya, Jonas, Ines], paid_by: Jonas,",
             "     category: utilities, repeat: {every: month, until: 2026-12-31}}",
             "  - {id: water, date: 2026-01-20, amount: 21.75, diners: [Maya, Jonas, Ines], paid_by: Ines,",
             "     category: utilities, repeat: {every: month, until: 2026-12-31}}"]
    number = 0
    for day in range(365):
        month, date = divmod_date(day)
        weekday = day % 7
        if weekday in (1, 4):
            number += 1
            lines.append(f"  - {{id: g{number}, date: {date}, description: Groceries, amount: {rng.randint(1500, 9500) / 100:.2f}, "
                         f"diners: [Maya, Jonas, Ines], paid_by: {rng.choice(people)}, category: groceries}}")
        if weekday == 5:
            number += 1
            diners = rng.sample(people, rng.randint(2, 3))
            lines.append(f"  - {{id: t{number}, date: {date}, description: Takeaway, amount: {rng.randint(1800, 6000) / 100:.2f}, "
                         f"tip: {rng.choice([0, 5, 10])}%, diners: [{', '.join(diners)}], paid_by: {diners[0]}, category: dining}}")
        if weekday == 6 and (day // 7) % 2 == 0:
            number += 1
            lines.append(f"  - {{id: c{number}, date: {date}, description: Cleaning, amount: {rng.randint(500, 2500) / 100:.2f}, "
                         f"diners: [Maya, Jonas, Ines], paid_by: {rng.choice(people)}, category: household}}")
    lines.append("payments:")
    for month in range(1, 13):
        lines.append(f"  - {{id: p{month}, date: 2026-{month:02d}-28, from: Jonas, to: Maya, amount: {rng.randint(100, 600)}.00}}")
    with open(os.path.join(directory, "flat.yaml"), "w") as out:
        out.write("\n".join(lines) + "\n")
    with open(os.path.join(directory, "internet.csv"), "w") as out:
        out.write("id,date,amount,currency,tip,diners,paid_by,category\n")
        for month in range(1, 13):
            out.write(f"net{month},2026-{month:02d}-05,39.99,EUR,0,Maya;Jonas;Ines,Ines,utilities\n")

def divmod_date(day):
    lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    month = 0
    while day >= lengths[month]:
        day -= lengths[month]
        month += 1
    return month + 1, f"2026-{month + 1:02d}-{day + 1:02d}"

def main():
    binary = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    with tempfile.TemporaryDirectory() as directory:
        write_books(directory)
        command = [binary, "balance", "Maya", directory, "--no-config"]
        first = subprocess.run(command, capture_output=True, text=True)
        if first.returncode != 0:
            sys.exit(f"balance failed ({first.returncode}): {first.stderr}")
        print(first.stdout.strip())
        subprocess.run(command, capture_output=True)
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run(command, capture_output=True, check=True)
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        check = subprocess.run([binary, "check", directory, "--no-config"], capture_output=True, text=True)
        print(check.stdout.strip().splitlines()[-1])
        print(f"balance on a year of a flat: median {statistics.median(times):.1f} ms, "
              f"90th percentile {times[int(len(times) * 0.9) - 1]:.1f} ms, slowest {times[-1]:.1f} ms ({runs} runs)")

main()
