import SplitBillCore
import SplitBillModel
import SplitBillText

/// The apps splitbill's books can be written for: each file is what that app's own import reads,
/// and splitbill's importer named by ``readBack`` reads it back with the same balances.
public enum ExportTarget: String, Sendable, CaseIterable {
  /// IHateMoney's bills JSON (Settings → Import).
  case ihatemoney
  /// Cospend's project CSV (Import project from CSV).
  case cospend
  /// The Splitwise-layout CSV that Spliit's Splitwise import reads (one payer per row).
  case spliitCSV = "spliit-csv"

  /// What the file is, for messages.
  public var fileName: String { writer.fileName }

  /// The app, for messages.
  public var appName: String { writer.appName }

  /// splitbill's importer of the file written, for the round trip.
  public var readBack: ImportSource { writer.readBack }

  /// The writer: adding an app is one file with a ``BookWriter``, and a case and its line here.
  var writer: any BookWriter.Type {
    switch self {
    case .ihatemoney: return IHateMoneyExport.self
    case .cospend: return CospendExport.self
    case .spliitCSV: return SpliitCSVExport.self
    }
  }

  /// Writes `book` (one currency, every record dated: ``BookExport/prepared(_:currency:date:)``).
  package func write(_ book: ImportedBook, date: CalendarDate) -> ExportedFile {
    writer.write(book, date: date)
  }
}

/// What an export had to fold or leave out, by kind (docs/export.md lists them).
public enum ExportCode: String, CaseIterable, Sendable {
  /// Bills written as several of the app's bills or rows (several payers, unequal shares).
  case splitBills = "export.split-bills"
  /// A name the app cannot hold as it is, written another way.
  case renamed = "export.renamed"
  /// Ids, notes or categories the app's bills have no place for.
  case notKept = "export.not-kept"
  /// Records in other currencies than the one exported.
  case otherCurrency = "export.other-currency"
  /// Bills in nobody's balance (a head count, nobody paid, nothing to pay), left out.
  case leftOut = "export.left-out"
  /// Records without a date, written with the export's.
  case undated = "export.undated"
  /// Tips written in the amounts and shares.
  case tipFolded = "export.tip-folded"
  /// Itemized bills written as each diner's share.
  case itemsFolded = "export.items-folded"
  /// Text cells that would run as a spreadsheet formula, written with a `'` before them.
  case formulaGuarded = "export.formula-guarded"
  /// Bills whose category or description the app's reader would mistake, written with ` (bill)`.
  case retitled = "export.retitled"
  /// Descriptions some versions of the app's import take for its summary row.
  case summaryLike = "export.summary-like"
}

/// One thing an export had to fold or leave out, said to the user (never done silently).
public struct ExportRemark: Sendable, Hashable {
  /// What kind of fold it is.
  public var code: ExportCode
  /// What was done, in a sentence.
  public var message: String

  package init(_ code: ExportCode, _ message: String) {
    self.code = code
    self.message = message
  }
}

/// A file written for an app, and what the app's format could not hold as it was (each said on
/// stderr, never dropped silently).
package struct ExportedFile: Sendable {
  package var bytes: [UInt8]
  package var remarks: [ExportRemark]
  /// The people written under another name (the app cannot hold theirs), by their books' name.
  package var renamed: [String: String] = [:]
}

/// One app's import format, written. `book` has one currency and every bill and payment a date.
package protocol BookWriter {
  /// What the file is, for messages (`Cospend project CSV`).
  static var fileName: String { get }
  /// The app, for messages.
  static var appName: String { get }
  /// splitbill's importer of the file written, for the round trip.
  static var readBack: ImportSource { get }
  /// The file for `book`, exported on `date` (the date a summary row names).
  static func write(_ book: ImportedBook, date: CalendarDate) -> ExportedFile
}

/// A bill as one payer's part for apps whose bills have one payer and split evenly among owers
/// (IHateMoney, Cospend): `each` per ower, `each × owers.count` in all.
package struct EvenPart: Hashable, Sendable {
  package var payer: String
  package var each: Int64
  package var owers: [String]
  package var total: Int64 { each * Int64(owers.count) }
}

/// A CSV export's text cells, guarded against spreadsheet formulas and counted for the remark.
package struct GuardedCells {
  package private(set) var guarded = 0

  package init() {}

  /// `text` as a cell: quoted, with a `'` before it when a spreadsheet would run it.
  package mutating func cell(_ text: String) -> String {
    if let first = text.utf8.first, CSVCell.startsFormula(first) { guarded += 1 }
    return CSVCell.safe(text)
  }

  /// What was guarded, for `app`'s users; `nil` when nothing was.
  package func remark(app: String) -> ExportRemark? {
    guard guarded > 0 else { return nil }
    return ExportRemark(
      .formulaGuarded,
      "\(plural(guarded, "text cell")) \(guarded == 1 ? "starts" : "start") with = + - @, a tab or a line break: "
        + "written with a ' before \(guarded == 1 ? "it" : "them"), so that a spreadsheet opening the file does not "
        + "run \(guarded == 1 ? "it" : "them") (\(app) will show the ')")
  }
}

/// What every writer shares: bills cut into single-payer parts and even parts.
package enum BookExport {
  /// Who of `bill`'s payers covers whose share, in order: the payers' amounts are matched with the
  /// shares first to first (the north-west corner), so each payer covers a run of shares and at
  /// most two payers share one.
  package static func coverage(_ bill: ImportedBill) -> [(payer: String, ower: String, units: Int64)] {
    var result: [(payer: String, ower: String, units: Int64)] = []
    var payers = bill.payers.filter { $0.minorUnits > 0 }
    var shares = bill.shares.filter { $0.minorUnits > 0 }
    var payer = 0
    var share = 0
    while payer < payers.count, share < shares.count {
      let units = min(payers[payer].minorUnits, shares[share].minorUnits)
      result.append((payers[payer].person, shares[share].person, units))
      payers[payer].minorUnits -= units
      shares[share].minorUnits -= units
      if payers[payer].minorUnits == 0 { payer += 1 }
      if shares[share].minorUnits == 0 { share += 1 }
    }
    return result
  }

  /// `bill` as even parts: for each payer (in order), their owers grouped by equal amounts (in the
  /// order first met). The parts move exactly the bill's balances.
  package static func evenParts(_ bill: ImportedBill) -> [EvenPart] {
    var parts: [EvenPart] = []
    for (payer, ower, units) in coverage(bill) {
      if let index = parts.firstIndex(where: { $0.payer == payer && $0.each == units }) {
        parts[index].owers.append(ower)
      } else {
        parts.append(EvenPart(payer: payer, each: units, owers: [ower]))
      }
    }
    return parts
  }

  /// `text` with every byte but letters, digits and `-_.~` percent-encoded (PHP's `rawurlencode`;
  /// `urldecode` reads it back).
  package static func percentEncoded(_ text: String) -> String {
    var result = ""
    for byte in text.utf8 {
      switch byte {
      case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x5F, 0x2E, 0x7E:
        result.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let digits = Array("0123456789ABCDEF")
        result += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
      }
    }
    return result
  }

  /// `N bills`, the first few ids after: `3 bills (dinner, taxi, museum)`, `12 bills (dinner, taxi, museum, …)`.
  package static func count(_ ids: [String], _ noun: String = "bill") -> String {
    let shown = ids.prefix(3).map { EchoedText.quote($0) }.joined(separator: ", ")
    return plural(ids.count, noun) + " (" + shown + (ids.count > 3 ? ", …" : "") + ")"
  }

  /// The remark for `cut` bills written as `parts` of `app`'s bills, each with one payer and
  /// owers who owe it evenly; `nil` when none was cut.
  package static func splitRemark(_ cut: [String], parts: Int, app: String) -> ExportRemark? {
    guard !cut.isEmpty else { return nil }
    return ExportRemark(
      .splitBills,
      "\(count(cut)) \(verb(cut.count)) written as \(parts) \(app) bills: a \(app) bill has one payer and splits "
        + "evenly among its owers, so a bill with several payers or unequal shares is one bill per payer and "
        + "share (what (1/2), what (2/2)); the balances are the same")
  }

  /// The book's people, then anyone its records name who is not among them, in the order met.
  package static func everyone(_ book: ImportedBook) -> [String] {
    var people = book.people
    var known = Set(people)
    let named =
      book.bills.flatMap { ($0.payers + $0.shares).map(\.person) } + book.payments.flatMap { [$0.from, $0.to] }
    for person in named where known.insert(person).inserted { people.append(person) }
    return people
  }

  /// A record's title in an app that needs one: its description, else its id.
  package static func title(_ description: String?, id: String) -> String {
    guard let description, !description.isEmpty else { return id }
    return description
  }

  /// `is` for one, `are` for more.
  package static func verb(_ count: Int) -> String { count == 1 ? "is" : "are" }

  /// The names `book` uses, each made one the app can hold (`rename` gives the app's spelling and
  /// why, or `nil` when the name is fine): the map from every changed name, and a remark for each.
  package static func renamed(
    _ book: ImportedBook, _ rename: (String) -> (name: String, why: String)?
  ) -> (names: [String: String], remarks: [ExportRemark]) {
    var names: [String: String] = [:]
    let people = everyone(book)
    var taken = Set(people)
    var remarks: [ExportRemark] = []
    for person in people {
      guard let (renamed, why) = rename(person) else { continue }
      var name = renamed
      let base = name
      var number = 2
      while taken.contains(name) {
        name = "\(base) \(number)"
        number += 1
      }
      taken.insert(name)
      names[person] = name
      remarks.append(
        ExportRemark(.renamed, "'\(EchoedText.quote(person))' is written '\(EchoedText.quote(name))': \(why)"))
    }
    return (names, remarks)
  }
}
