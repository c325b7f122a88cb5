import SplitBillCore
import SplitBillModel
import SplitBillText

/// Which app an export came from.
public enum ImportSource: String, Sendable, CaseIterable {
  case splitwise, spliit, ihatemoney, cospend
  /// A bank's, a card's or an app's CSV statement, read by a rules file.
  case csv

  /// How the app names the export, for messages and the file's header.
  public var exportName: String { reader.exportName }
}

/// A person's part of a bill or of what was paid for it, in the bill's minor units.
package struct ImportedPart: Hashable, Sendable {
  package var person: String
  package var minorUnits: Int64

  package init(person: String, minorUnits: Int64) {
    self.person = person
    self.minorUnits = minorUnits
  }
}

/// An expense of the source, as a splitbill bill: no tip, the payers' amounts and each person's
/// exact share given in full, so that every balance is the source's to the unit.
package struct ImportedBill: Hashable, Sendable {
  package var id: String
  package var date: CalendarDate?
  package var description: String?
  package var amount: Money
  /// One payer (written `paid_by: Name`) or several with their amounts.
  package var payers: [ImportedPart]
  /// Exact shares, adding up to `amount`; nobody with a zero share is listed.
  package var shares: [ImportedPart]
  package var notes: String?
  /// A remark written above the bill (how the source split it), not part of the bill.
  package var comment: String?
  /// The source's negative cost when the bill is a refund (written as the balances it moves).
  package var refund: Money? = nil
  /// The source's category (Splitwise's `Category` cell, Spliit's category name), as written.
  package var category: String? = nil

  package init(
    id: String, date: CalendarDate?, description: String?, amount: Money, payers: [ImportedPart],
    shares: [ImportedPart], notes: String?, comment: String?, refund: Money? = nil, category: String? = nil
  ) {
    self.id = id
    self.date = date
    self.description = description
    self.amount = amount
    self.payers = payers
    self.shares = shares
    self.notes = notes
    self.comment = comment
    self.refund = refund
    self.category = category
  }
}

extension ImportedBill {
  /// A bill that moves `effects` (each person's net effect, adding up to zero) and nothing more:
  /// whoever gains paid their effect, whoever loses owes it. How a refund (a negative cost, which
  /// splitbill bills never have) is written, exactly.
  static func moving(
    _ effects: [ImportedPart], refund: Money, id: String, date: CalendarDate?, description: String?, notes: String?,
    comment: String?, category: String? = nil
  ) -> ImportedBill {
    let gains = effects.filter { $0.minorUnits > 0 }
    let losses = effects.filter { $0.minorUnits < 0 }.map {
      ImportedPart(person: $0.person, minorUnits: -$0.minorUnits)
    }
    let total = gains.reduce(0) { $0 + $1.minorUnits }
    return ImportedBill(
      id: id, date: date, description: description, amount: Money(minorUnits: total, currency: refund.currency),
      payers: gains, shares: losses, notes: notes, comment: comment, refund: refund, category: category)
  }

  /// `parts` with each person once, their parts added (in the order they first come).
  static func netted(_ parts: [ImportedPart]) -> [ImportedPart] {
    var result: [ImportedPart] = []
    for part in parts {
      if let index = result.firstIndex(where: { $0.person == part.person }) {
        result[index].minorUnits += part.minorUnits
      } else {
        result.append(part)
      }
    }
    return result
  }
}

/// A settle-up payment of the source.
package struct ImportedPayment: Hashable, Sendable {
  package var id: String
  package var date: CalendarDate?
  package var from: String
  package var to: String
  package var amount: Money
  package var notes: String?

  package init(id: String, date: CalendarDate?, from: String, to: String, amount: Money, notes: String?) {
    self.id = id
    self.date = date
    self.from = from
    self.to = to
    self.amount = amount
    self.notes = notes
  }
}

/// A history read from another app's export: people, bills and payments in the source's order,
/// the rows left out (each with why), and the balances the source itself shows, to check the
/// import against.
package struct ImportedBook: Sendable {
  package var source: ImportSource
  /// Everyone of the group, in the source's order.
  package var people: [String] = []
  package var bills: [ImportedBill] = []
  package var payments: [ImportedPayment] = []
  /// Rows read (a Splitwise data row, a Spliit expense), the summary row not counted.
  package var rowsRead = 0
  /// Rows with no effect on balances, left out: each a note saying which and why.
  package var omitted: [Diagnostic] = []
  /// Invalid rows skipped with `--skip-invalid`, each with its error.
  package var skipped: [Diagnostic] = []
  /// Warnings and notes about rows that were imported (a cent of drift resolved).
  package var remarks: [Diagnostic] = []
  /// The balances the source shows, by currency and person, once the skipped rows and resolved
  /// drift are taken out; `nil` for a currency the source gives none for.
  package var expectedBalances: [Currency: [String: Int64]] = [:]
  /// Where the expected balances come from ("the export's Total balance row").
  package var expectedFrom = ""
  /// Why the source gives no balances to check, when that is its nature (a bank statement).
  package var uncheckedWhy: String?
  /// Lines for the file's header comment (which rule rebuilt the shares).
  package var headerNotes: [String] = []

  package init(source: ImportSource) { self.source = source }

  /// "4 bills" or "4 bills (1 refund)".
  package var billsSummary: String {
    let refunds = bills.count { $0.refund != nil }
    return plural(bills.count, "bill") + (refunds == 0 ? "" : " (\(plural(refunds, "refund")))")
  }

  /// The currencies the records use, sorted.
  package var currencies: [Currency] {
    Set(bills.map(\.amount.currency) + payments.map(\.amount.currency)).sorted()
  }

  /// The splitbill YAML file: a header naming `sourceName` and `date`, the people, and the bills
  /// and payments in the source's order (one currency in `defaults` when there is only one).
  /// Rows left out are listed in comments. The same book always gives the same bytes.
  package func yaml(sourceName: String, date: CalendarDate) -> String {
    var out: [String] = []
    out.append(
      "# Imported from the \(source.exportName) \(YAMLText.comment(sourceName)) on \(date) by `splitbill import \(source.rawValue)`."
    )
    out.append(
      "# \(plural(rowsRead, "row")) read: \(billsSummary), \(plural(payments.count, "payment"))"
        + (omitted.isEmpty ? "" : ", \(omitted.count) left out (no effect on balances)")
        + (skipped.isEmpty ? "" : ", \(skipped.count) invalid and skipped") + ".")
    for note in headerNotes { out.append("# \(YAMLText.comment(note))") }
    for issue in (omitted + skipped + remarks).sorted(by: Self.inFileOrder) {
      let place = issue.location.map { "line \($0.line): " } ?? ""
      out.append(
        "# \(issue.severity == .error ? "skipped" : issue.severity.rawValue): \(place)\(YAMLText.comment(issue.message))"
      )
    }
    out.append("version: 1")
    out.append("people: [" + people.map(YAMLText.quoted).joined(separator: ", ") + "]")
    let currencies = self.currencies
    let single = currencies.count == 1 ? currencies[0] : nil
    out.append("defaults: {" + (single.map { "currency: \($0.code), " } ?? "") + "tip: 0}")
    out.append(bills.isEmpty ? "bills: []" : "bills:")
    for bill in bills {
      if let comment = bill.comment { out.append("  # \(YAMLText.comment(comment))") }
      out.append("  - id: \(YAMLText.quoted(bill.id))")
      if let date = bill.date { out.append("    date: \(date)") }
      if let description = bill.description { out.append("    description: \(YAMLText.quoted(description))") }
      if let category = bill.category { out.append("    category: \(YAMLText.quoted(category))") }
      out.append("    amount: \(bill.amount.decimalString)")
      if single == nil { out.append("    currency: \(bill.amount.currency.code)") }
      if bill.payers.count == 1 {
        out.append("    paid_by: \(YAMLText.quoted(bill.payers[0].person))")
      } else {
        out.append("    paid_by: " + Self.parts(bill.payers, bill.amount.currency))
      }
      out.append("    shares: " + Self.parts(bill.shares, bill.amount.currency))
      if let notes = bill.notes { out.append("    notes: \(YAMLText.quoted(notes))") }
    }
    if !payments.isEmpty {
      out.append("payments:")
      for payment in payments {
        out.append("  - id: \(YAMLText.quoted(payment.id))")
        if let date = payment.date { out.append("    date: \(date)") }
        out.append("    from: \(YAMLText.quoted(payment.from))")
        out.append("    to: \(YAMLText.quoted(payment.to))")
        out.append("    amount: \(payment.amount.decimalString)")
        if single == nil { out.append("    currency: \(payment.amount.currency.code)") }
        if let notes = payment.notes { out.append("    notes: \(YAMLText.quoted(notes))") }
      }
    }
    return out.joined(separator: "\n") + "\n"
  }

  /// The balances the book's records give, exactly (paid minus shares, sent minus received), by
  /// currency and person.
  package var balances: [Currency: [String: Int64]] {
    var result: [Currency: [String: Int64]] = [:]
    for bill in bills {
      for part in bill.payers { result[bill.amount.currency, default: [:]][part.person, default: 0] += part.minorUnits }
      for part in bill.shares { result[bill.amount.currency, default: [:]][part.person, default: 0] -= part.minorUnits }
    }
    for payment in payments {
      result[payment.amount.currency, default: [:]][payment.from, default: 0] += payment.amount.minorUnits
      result[payment.amount.currency, default: [:]][payment.to, default: 0] -= payment.amount.minorUnits
    }
    return result
  }

  private static func parts(_ parts: [ImportedPart], _ currency: Currency) -> String {
    "{"
      + parts.map {
        "\(YAMLText.quoted($0.person)): \(Money(minorUnits: $0.minorUnits, currency: currency).decimalString)"
      }
      .joined(separator: ", ") + "}"
  }

  /// Issues by line (those without one last), stable otherwise.
  package static func inFileOrder(_ first: Diagnostic, _ second: Diagnostic) -> Bool {
    (first.location?.line ?? .max, first.location?.column ?? 0)
      < (second.location?.line ?? .max, second.location?.column ?? 0)
  }

  /// The id of the `part`th (0-based) payment made of one source row: `ID-a`, `ID-b`, …
  static func id(_ id: String, part: Int) -> String {
    part < 26 ? "\(id)\(Character(Unicode.Scalar(UInt8(0x61 + part))))" : "\(id)-\(part + 1)"
  }

}
