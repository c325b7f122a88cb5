import SplitBillCore

/// The HTML report's charts: inline SVG (no script, nothing fetched), each a `<figure>` whose SVG
/// has a `<title>` and a `<desc>` naming what it shows, beside a table with every number it
/// draws. Colours come from the page's style (classes, `currentColor`), so dark mode and print
/// restyle them; lines and bars are also labelled by name, never by colour alone. Every untrusted
/// text is escaped; each SVG is well-formed XML.
enum HTMLCharts {
  /// A chart and its table, side by side when the page is wide enough.
  private static func figure(
    id: String, title: String, description: String, width: Int, height: Int, body: [String], table: String
  ) -> String {
    let title = HTMLReportWriter<StringSink>.escape(title)
    let description = HTMLReportWriter<StringSink>.escape(description)
    return
      ([
        "<div class=\"chart\"><figure>",
        "<svg role=\"img\" aria-labelledby=\"\(id)-title \(id)-desc\" xmlns=\"http://www.w3.org/2000/svg\" "
          + "width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">",
        "<title id=\"\(id)-title\">\(title)</title>",
        "<desc id=\"\(id)-desc\">\(description)</desc>",
      ] + body + ["</svg>", "<figcaption>\(title)</figcaption></figure>", table, "</div>"])
      .joined(separator: "\n")
  }

  /// A table of escaped cells, every column but the first a number.
  private static func table(_ headings: [String], _ rows: [[String]]) -> String {
    HTMLReportWriter<StringSink>.table(headings, rows, numbersFrom: 1)
  }

  /// `value` of `largest` as a length of at most `span` pixels (0 when `largest` is 0).
  private static func length(_ value: Int64, of largest: Int64, span: Int) -> Int {
    guard largest > 0 else { return 0 }
    return Int(Int128(value.magnitude) * Int128(span) / Int128(largest.magnitude))
  }

  private static let labelWidth = 170
  private static let width = 640

  /// A horizontal bar per person's closing balance: credit to the right, debt to the left.
  static func balances(_ people: [PersonTotals], currency: Currency) -> String {
    let escape = { HTMLReportWriter<StringSink>.escape($0) }
    let rowHeight = 26
    let middle = labelWidth + (width - labelWidth) / 2
    let half = (width - labelWidth) / 2 - 70
    let largest = people.map { $0.closing.magnitude }.max() ?? 0
    let height = rowHeight * people.count + 8
    let money = { (units: Int64) in Money(minorUnits: units, currency: currency).groupedString }
    var body = ["<line class=\"axis-line\" x1=\"\(middle)\" y1=\"0\" x2=\"\(middle)\" y2=\"\(height)\"/>"]
    for (index, person) in people.enumerated() {
      let y = 4 + index * rowHeight
      let bar = max(largest == 0 ? 0 : Int(Int128(person.closing.magnitude) * Int128(half) / Int128(largest)), 1)
      let credit = person.closing >= 0
      body.append(
        "<text x=\"0\" y=\"\(y + 15)\">\(escape(person.person))</text>"
          + "<rect class=\"\(credit ? "bar-credit" : "bar-debt")\" x=\"\(credit ? middle : middle - bar)\" "
          + "y=\"\(y + 3)\" width=\"\(bar)\" height=\"16\"/>"
          + "<text x=\"\(credit ? middle + bar + 4 : middle - bar - 4)\" y=\"\(y + 15)\" "
          + "text-anchor=\"\(credit ? "start" : "end")\">\(money(person.closing))</text>")
    }
    return figure(
      id: "balances-\(currency.code)", title: "Balances in \(currency.code)",
      description: "A bar per person: right of the line others owe them, left of it they owe.", width: width,
      height: height, body: body,
      table: table(["person", "balance"], people.map { [$0.person, money($0.closing)] }))
  }

  /// Spending by category: a bar per category, its total and share; the category table beside.
  static func spending(_ category: CategoryTable) -> String {
    let escape = { HTMLReportWriter<StringSink>.escape($0) }
    let rowHeight = 24
    let span = width - labelWidth - 150
    let largest = category.categories.map(\.total).max() ?? 0
    let height = rowHeight * category.categories.count + 8
    var body: [String] = []
    let rows = category.rows
    for (index, entry) in category.categories.enumerated() {
      let y = 4 + index * rowHeight
      let bar = max(length(max(entry.total, 0), of: largest, span: span), 1)
      body.append(
        "<text x=\"0\" y=\"\(y + 16)\">\(escape(CategoryTable.name(entry.category)))</text>"
          + "<rect class=\"bar-spent\" x=\"\(labelWidth)\" y=\"\(y + 4)\" width=\"\(bar)\" height=\"16\"/>"
          + "<text x=\"\(labelWidth + bar + 6)\" y=\"\(y + 16)\">\(rows[index][2]) (\(rows[index][3]))</text>")
    }
    let whole = category.money(category.categories.reduce(0) { $0 + $1.total })
    return figure(
      id: "spending-\(slug(category.title))", title: "Spending by category in \(category.title)",
      description: "A bar per category, longest for the most spent; \(whole) \(category.currency.code) in all.",
      width: width, height: height, body: body, table: table(category.headings, rows))
  }

  /// Each person's consumption against what they paid, in one currency: two bars a person.
  static func consumption(_ people: [PersonTotals], currency: Currency) -> String {
    let escape = { HTMLReportWriter<StringSink>.escape($0) }
    let rowHeight = 40
    let span = width - labelWidth - 110
    let largest = people.map { max($0.consumed, $0.paid) }.max() ?? 0
    let height = rowHeight * people.count + 28
    let money = { (units: Int64) in Money(minorUnits: units, currency: currency).groupedString }
    var body = [
      "<rect class=\"bar-consumed\" x=\"\(labelWidth)\" y=\"4\" width=\"12\" height=\"12\"/>"
        + "<text x=\"\(labelWidth + 16)\" y=\"15\">consumed</text>"
        + "<rect class=\"bar-paid\" x=\"\(labelWidth + 100)\" y=\"4\" width=\"12\" height=\"12\"/>"
        + "<text x=\"\(labelWidth + 116)\" y=\"15\">paid</text>"
    ]
    for (index, person) in people.enumerated() {
      let y = 24 + index * rowHeight
      let consumed = max(length(max(person.consumed, 0), of: largest, span: span), 1)
      let paid = max(length(max(person.paid, 0), of: largest, span: span), 1)
      body.append(
        "<text x=\"0\" y=\"\(y + 20)\">\(escape(person.person))</text>"
          + "<rect class=\"bar-consumed\" x=\"\(labelWidth)\" y=\"\(y + 2)\" width=\"\(consumed)\" height=\"14\"/>"
          + "<text x=\"\(labelWidth + consumed + 6)\" y=\"\(y + 14)\">\(money(person.consumed))</text>"
          + "<rect class=\"bar-paid\" x=\"\(labelWidth)\" y=\"\(y + 18)\" width=\"\(paid)\" height=\"14\"/>"
          + "<text x=\"\(labelWidth + paid + 6)\" y=\"\(y + 30)\">\(money(person.paid))</text>")
    }
    // The balance as the report has it (what was carried in, plus paid less shares of paid
    // bills, plus payments sent, less received), with the payments and the opening shown when
    // there are any: `paid − consumed` is no balance once a payment or an unpaid bill is in.
    // The last column is the closing balance, the one the balances' chart shows beside it.
    let payments = people.contains { $0.sent != 0 || $0.received != 0 }
    let opening = people.contains { $0.opening != 0 }
    let rows = people.map { person in
      [person.person] + (opening ? [money(person.opening)] : []) + [money(person.consumed), money(person.paid)]
        + (payments ? [money(person.sent), money(person.received)] : []) + [money(person.closing)]
    }
    let headings =
      ["person"] + (opening ? ["opening"] : []) + ["consumed", "paid"] + (payments ? ["sent", "received"] : [])
      + ["balance"]
    return figure(
      id: "consumption-\(currency.code)", title: "Consumed and paid in \(currency.code)",
      description: "Two bars a person: what their shares came to, and what they paid for bills.", width: width,
      height: height, body: body, table: table(headings, rows))
  }

  /// Each person's balance at the end of each week, a line a person.
  static func timeline(_ series: WeeklyBalances) -> String {
    let escape = { HTMLReportWriter<StringSink>.escape($0) }
    let money = { (units: Int64) in Money(minorUnits: units, currency: series.currency).groupedString }
    let left = 80
    let right = 130
    let top = 12
    let plotHeight = 220
    let height = top + plotHeight + 40 + 14 * series.people.count / 2
    let span = width - left - right
    let values = series.people.flatMap(\.balances) + [0]
    let high = values.max() ?? 0
    let low = values.min() ?? 0
    let range = max(high - low, 1)
    let columns = max(series.mondays.count - 1, 1)
    func x(_ week: Int) -> Int { left + (series.mondays.count == 1 ? span / 2 : week * span / columns) }
    func y(_ value: Int64) -> Int { top + Int(Int128(high - value) * Int128(plotHeight) / Int128(range)) }
    var body = [
      "<line class=\"axis-line\" x1=\"\(left)\" y1=\"\(y(0))\" x2=\"\(width - right)\" y2=\"\(y(0))\"/>",
      "<text x=\"\(left - 6)\" y=\"\(y(high) + 4)\" text-anchor=\"end\">\(money(high))</text>",
      "<text x=\"\(left - 6)\" y=\"\(y(0) + 4)\" text-anchor=\"end\">0</text>",
      "<text x=\"\(left - 6)\" y=\"\(y(low) + 4)\" text-anchor=\"end\">\(money(low))</text>",
      "<text x=\"\(x(0))\" y=\"\(height - 10)\" text-anchor=\"middle\">\(series.mondays.first.map { "\($0)" } ?? "")</text>",
    ]
    if series.mondays.count > 1, let last = series.mondays.last {
      body.append(
        "<text x=\"\(x(series.mondays.count - 1))\" y=\"\(height - 10)\" text-anchor=\"middle\">\(last)</text>")
    }
    // The names at the lines' ends, moved apart to at least a line of text each.
    var labelY = Dictionary(
      uniqueKeysWithValues: series.people.indices.map { ($0, y(series.people[$0].balances.last ?? 0) + 4) })
    var previous = Int.min
    for index in series.people.indices.sorted(by: { labelY[$0, default: 0] < labelY[$1, default: 0] }) {
      let placed = max(labelY[index, default: 0], previous + 14)
      labelY[index] = placed
      previous = placed
    }
    for (number, person) in series.people.enumerated() {
      let points = person.balances.enumerated().map { "\(x($0.offset)),\(y($0.element))" }.joined(separator: " ")
      let style = "series-\(number % 8)"
      body.append("<polyline class=\"line \(style)\" points=\"\(points)\"/>")
      // A dot a week while the weeks are few enough to tell apart.
      for (week, value) in person.balances.enumerated() where person.balances.count <= 26 {
        body.append("<circle class=\"dot \(style)\" cx=\"\(x(week))\" cy=\"\(y(value))\" r=\"3\"/>")
      }
      if let last = person.balances.last {
        body.append(
          "<text class=\"\(style)-label\" x=\"\(x(person.balances.count - 1) + 8)\" y=\"\(labelY[number, default: 0])\">"
            + "\(escape(person.person)) \(money(last))</text>")
      }
    }
    let headings = [series.byDay ? "day" : "week of"] + series.people.map(\.person)
    let rows = series.mondays.indices.map { week in
      ["\(series.mondays[week])"] + series.people.map { money($0.balances[week]) }
    }
    return figure(
      id: "timeline-\(series.currency.code)",
      title: "Balances \(series.byDay ? "day" : "week") by \(series.byDay ? "day" : "week") in \(series.currency.code)",
      description: series.byDay
        ? "A line a person: where they stood at the end of each day, above zero owed, below it owing."
        : "A line a person: where they stood at the end of each week (Monday to Sunday), above zero owed, below it owing.",
      width: width, height: height, body: body, table: table(headings, rows))
  }

  /// Letters and digits of `text`, for an id.
  private static func slug(_ text: String) -> String {
    String(
      text.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }.prefix(24))
  }

  /// The charts' style: palette as variables, restyled for dark mode and print.
  static let style = """
    :root{--fg:#1b1b1b;--bg:#fff;--muted:#666;--rule:#ddd;--head:#f4f4f4;--spent:#5b6fd6;--consumed:#e08a2e;--paid:#2e8b57;--credit:#2e7d32;--debt:#c62828;\
    --s0:#1f77b4;--s1:#d62728;--s2:#2ca02c;--s3:#9467bd;--s4:#8c564b;--s5:#e377c2;--s6:#7f7f7f;--s7:#bcbd22}
    @media (prefers-color-scheme:dark){:root{--fg:#e6e6e6;--bg:#161616;--muted:#aaa;--rule:#444;--head:#262626;\
    --spent:#8da0ff;--consumed:#ffb163;--paid:#6fd39a;--credit:#66bb6a;--debt:#ef5350;--s0:#6cb4ff;--s1:#ff7b7b;--s2:#7ee07e;--s3:#c9a7ff;--s4:#d9a38a;\
    --s5:#ff9ed8;--s6:#c4c4c4;--s7:#e6e66a}}
    body{background:var(--bg);color:var(--fg)}th{background:var(--head)}th,td{border-color:var(--rule)}
    .chart{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start}.chart figure{margin:0}.chart table{width:auto}
    svg text{fill:currentColor}.bar-spent{fill:var(--spent)}.bar-consumed{fill:var(--consumed)}.bar-paid{fill:var(--paid)}\
    .bar-credit{fill:var(--credit)}.bar-debt{fill:var(--debt)}
    .axis-line{stroke:var(--muted);stroke-width:1}.line{fill:none;stroke-width:2}
    .series-0{stroke:var(--s0);fill:var(--s0)}.series-1{stroke:var(--s1);fill:var(--s1)}.series-2{stroke:var(--s2);fill:var(--s2)}\
    .series-3{stroke:var(--s3);fill:var(--s3)}.series-4{stroke:var(--s4);fill:var(--s4)}.series-5{stroke:var(--s5);fill:var(--s5)}\
    .series-6{stroke:var(--s6);fill:var(--s6)}.series-7{stroke:var(--s7);fill:var(--s7)}polyline.line{fill:none}
    @media print{:root{--fg:#000;--bg:#fff}.chart{break-inside:avoid}svg{print-color-adjust:exact;-webkit-print-color-adjust:exact}}
    """
}
