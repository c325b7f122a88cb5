import SplitBillCore

/// A figure read off a receipt: its value in the currency's minor units and the line it is on.
public struct ReadFigure: Sendable, Equatable {
  public var minorUnits: Int64
  /// The page's line (from 1), when the figure was read off a line (not by a vision model).
  public var line: Int?
  /// Whether the figure is not printed but inferred from the others (a rounding to 0.05 no line
  /// shows): the checks say so, and it verifies nothing on its own.
  public var inferred = false

  public init(minorUnits: Int64, line: Int?, inferred: Bool = false) {
    self.minorUnits = minorUnits
    self.line = line
    self.inferred = inferred
  }
}

/// An item line: its name as printed, the line's amount (`price` × `quantity`), the quantity when
/// one is printed and the unit price ties it to the amount.
public struct ScannedItem: Sendable, Equatable {
  public var name: String
  /// The line's amount as printed, in minor units (negative for a discount line among the items).
  public var amount: Int64
  public var quantity: Int
  /// The page's line (from 1), when read off a line.
  public var line: Int?

  /// The price of one (`amount / quantity`, exact by construction).
  public var unitPrice: Int64 { amount / Int64(quantity) }
}

/// One arithmetic check made on what was read: its name (`items-subtotal`, `subtotal-total`,
/// `items-total`, `cash-change`, `decimals`), whether it held, and what it compared.
public struct ReceiptCheck: Sendable, Equatable {
  public var name: String
  public var passed: Bool
  public var detail: String
}

/// Why a receipt needs a person to look at it: a code, the sentence, and the line it is about.
public struct ReviewReason: Sendable, Equatable {
  public var code: String
  public var message: String
  /// The line of the page the reason is about, when one is.
  public var line: Int?
}

/// One reading of a photo: how the page was prepared (``RecognitionPass/name``), and what came of
/// it. A scan keeps one reading (mended, perhaps, by the others); `--verbose` and the JSON say
/// them all.
public struct ReadingSummary: Sendable, Equatable {
  /// `block`, `country-language`, `rescaled`, `flattened`, `coloured-ink-removed` or
  /// `locally-thresholded`.
  public var pass: String
  /// The words Tesseract read.
  public var words: Int
  /// The total it read (or worked out), in minor units.
  public var total: Int64?
  public var status: ScannedReceipt.Status
  public var checksHeld: Int
  public var checksMade: Int
  /// Its review reasons' codes.
  public var reasons: [String]
  /// Whether it is the reading the bill was made of.
  public var kept = false

  /// What `pass`, having read `words` words, made of `receipt`.
  init(pass: String, words: Int, receipt: ScannedReceipt) {
    self.pass = pass
    self.words = words
    total = receipt.total?.minorUnits
    status = receipt.status
    checksHeld = receipt.checks.filter(\.passed).count
    checksMade = receipt.checks.count
    reasons = receipt.reasons.map(\.code)
  }
}

/// What was read from one receipt, and how far it was checked.
///
/// `verified` means that the total read is tied by arithmetic to the items read: the items add up
/// to the subtotal (when one is printed), and the subtotal less the discount plus service, tax
/// (unless included), rounding and a printed tip is the total; no check made failed. Anything
/// less is `needs-review`, with the reasons.
public struct ScannedReceipt: Sendable, Equatable {
  public enum Status: String, Sendable, Equatable {
    case verified
    case needsReview = "needs-review"
  }

  public var merchant: String?
  public var date: CalendarDate?
  public var currency: Currency?
  /// Where the currency came from: `printed` (a code or sign on the receipt), `country: MY, from
  /// "SDN BHD"` (the country the receipt names, ``ReceiptCountry``), `option` (`--currency`),
  /// `dollar` (a bare `$`, read as US dollars).
  public var currencySource: String?
  /// The country the receipt's text points to (``ReceiptCountry``), whether or not it gave the
  /// currency; what the scanner reads the page again in the language of.
  public var country: ReceiptCountry?
  public var items: [ScannedItem] = []
  public var subtotal: ReadFigure?
  /// A total before tax printed beside items that hold the tax (`Total Exclusive of Tax`):
  /// checked as the total less the tax, not against the items.
  public var net: ReadFigure?
  public var discount: ReadFigure?
  public var service: ReadFigure?
  public var tax: ReadFigure?
  /// Whether the prices hold the tax (VAT): the tax is printed but not added.
  public var taxIncluded = false
  /// The tax's rate as printed beside it, in hundredths of a percent (`6%` is 600).
  public var taxRate: Int64?
  public var rounding: ReadFigure?
  public var tip: ReadFigure?
  public var total: ReadFigure?
  /// The total as printed, when ``total`` is it with a rounding printed under it (`Total 31.47`,
  /// `Rounding -0.02`: 31.45 paid, ``ReadFigure/inferred``).
  public var printedTotal: ReadFigure?
  /// Whether no total could be read and ``total`` was worked out from the subtotal (which the
  /// items tie to) and the adjustments under it: never verified, always for a person to compare
  /// with the paper.
  public var totalWorkedOut = false
  public var cash: ReadFigure?
  public var change: ReadFigure?
  /// Lines among the items whose price could not be read.
  public var unreadPrices: [Int] = []
  /// Lines just under the total that name a rounding or another total whose figure could not be
  /// read (`Rounding Adjustment`, `TOTAL :`): the total paid may not be the one read.
  public var unreadFigures: [Int] = []
  public var checks: [ReceiptCheck] = []
  public var reasons: [ReviewReason] = []
  /// The page's lines as read, numbered from 1.
  public var lines: [String] = []
  /// Every reading made of the photo, in order (empty for a vision model's answer).
  public var readings: [ReadingSummary] = []

  public var status: Status { reasons.isEmpty && total != nil ? .verified : .needsReview }

  /// The items' amounts added up, discount lines among them included.
  public var itemsSum: Int64 { items.reduce(0) { $0 + $1.amount } }

  /// How sure Tesseract was of the reading's words, on average (0–100).
  public var confidence = 0

  /// How many of the checks held: what picks the best of several readings (then how near its
  /// items come to adding up, less the items dearer than the bill, then Tesseract's confidence).
  var score: Int {
    (checks.filter(\.passed).count * 4 - reasons.count + min(items.count, 3) + (total == nil ? -10 : 0) + nearness
      - 2 * itemsOverTotal) * 100 + confidence
  }

  /// How many items cost more than the whole bill (its total and discount): each one a misreading.
  var itemsOverTotal: Int {
    guard let total = total?.minorUnits else { return 0 }
    return items.filter { $0.amount > total + (discount?.minorUnits ?? 0) }.count
  }

  /// 2 when the items add up to within a tenth of the subtotal (or the total, when no subtotal
  /// was read) without reaching it, 1 within a half, else 0: of two readings that do not
  /// close, the one that misread less is nearer.
  var nearness: Int {
    guard let target = (subtotal ?? total)?.minorUnits, target > 0, !items.isEmpty else { return 0 }
    let apart = abs(itemsSum - target)
    if apart == 0 { return 0 }
    return apart * 10 < target ? 2 : apart * 2 < target ? 1 : 0
  }
}
