import SplitBillCore
@_spi(Readers) import SplitBillModel
import SplitBillText

extension BillRules {
  /// An itemized bill's receipt and its amount (what the receipt comes to before tip), the
  /// given amount and the printed total checked against it; the given amount when there are no items.
  @inline(never)
  mutating func itemized<Fields: BillFields & ~Copyable & ~Escapable, Policy: ProblemPolicy>(
    _ itemList: ItemList, _ fields: borrowing Fields, amount: Money?, currency: Currency?, tip: TipChoice?,
    diners: Diners?, leftover: LeftoverPolicy, rounding: RoundingMode, _ policy: inout Policy
  ) throws(Policy.Stop) -> (Receipt?, Money?) {
    var amount = amount
    var receipt: Receipt?
    let itemsGiven: Bool
    if case .absent = itemList { itemsGiven = false } else { itemsGiven = true }
    if case .exact = diners, itemsGiven {
      try policy.report(.error(.split(.itemsWithShares), at: fields.keyLocation(.items)))
    } else if let currency {
      receipt = try self.receipt(itemList, fields, currency: currency, diners: diners, rounding: rounding, &policy)
    }
    if let receipt, let currency, let figures = try? receipt.figures(currency: currency, rounding: rounding) {
      if let given = amount, given != figures.beforeTip {
        try policy.report(
          .error(
            .split(.amountDoesNotMatchItems(amount: given, computed: figures.beforeTip)),
            at: fields.valueLocation(.amount)))
      }
      amount = figures.beforeTip
      // The printed total is checked now when the tip is known; after the advisor, by the split.
      let known =
        tip.flatMap {
          BillTerms(
            amount: figures.beforeTip, tip: $0, diners: .anonymous(count: 1), leftover: leftover, rounding: rounding,
            receipt: receipt
          ).knownTotal
        }
      if let known {
        do throws(SplitError) {
          try receipt.checkReceiptTotal(
            figures, tip: Money(minorUnits: known.minorUnits - figures.beforeTip.minorUnits, currency: currency))
        } catch {
          try policy.report(.error(.split(error), at: fields.valueLocation(.receiptTotal)))
        }
      }
    }

    return (receipt, amount)
  }

  /// An itemized bill's receipt, every rule of items and adjustments checked (the arithmetic's
  /// own rules are Core's, said here where they were written); `nil` when the bill has no items
  /// or a problem was reported. Receipt keys on a bill without items are reported.
  mutating func receipt<Fields: BillFields & ~Copyable & ~Escapable, Policy: ProblemPolicy>(
    _ list: ItemList, _ fields: borrowing Fields, currency: Currency, diners: Diners?, rounding: RoundingMode,
    _ policy: inout Policy
  ) throws(Policy.Stop) -> Receipt? {
    let sources: [ItemSource]
    switch list {
    case .absent:
      guard fields.givesReceiptKeys else { return nil }
      for key in BillKey.receiptKeys {
        switch fields.value(key) {
        case .absent, .null: continue
        default: try policy.report(.error(.adjustmentWithoutItems(key: key.name), at: fields.keyLocation(key)))
        }
      }
      return nil
    case .unexpected(let shape, let location):
      try policy.report(.error(.itemsShape(shape), at: location))
      return nil
    case .items(let list, let location):
      guard !list.isEmpty else {
        try policy.report(.error(.split(.noItems), at: location))
        return nil
      }
      sources = list
    }

    var failed = false
    var items: [ReceiptItem] = []
    for source in sources {
      if let item = try self.item(source, currency: currency, diners: diners, &policy) {
        items.append(item)
      } else {
        failed = true
      }
    }
    let discount = try adjustment(.discount, fields, currency: currency, &policy)
    let service = try adjustment(.service, fields, currency: currency, &policy)
    let tax = try adjustment(.tax, fields, currency: currency, &policy)
    var discountItems: [String]?
    switch fields.value(.discountItems) {
    case .text(let text): discountItems = [fields.string(text).trimmingSpaces]
    case .entries:
      var names: [String] = []
      var cursor = 0
      while let (text, _) = fields.nextEntry(.discountItems, &cursor) {
        names.append(fields.string(text).trimmingSpaces)
      }
      discountItems = names
    case .unexpected:
      try policy.report(
        .error(
          .notSingleValue(key: "discount_items", shape: fields.shape(of: .discountItems)),
          at: fields.valueLocation(.discountItems)))
    case .absent, .null: break
    }
    var taxIncluded = false
    if let text = try Self.text(.taxIncluded, fields, &policy) {
      switch fields.string(text).trimmingSpaces.lowercased() {
      case "true", "yes": taxIncluded = true
      case "false", "no": taxIncluded = false
      default:
        try policy.report(
          .error(.notAFlag(key: "tax_included", text: fields.string(text)), at: fields.location(of: text)))
      }
    }
    var tipOn = TipBase.pretax
    if let text = try Self.text(.tipOn, fields, &policy) {
      tipOn =
        try Self.parseChoice(fields.string(text), TipBase.self, "tip_on", at: fields.location(of: text), &policy)
        ?? .pretax
    }
    var receiptTotal: Money?
    if let text = try Self.text(.receiptTotal, fields, &policy) {
      receiptTotal = try money(text, fields, currency: currency, field: "receipt_total", &policy)
      if receiptTotal == nil { failed = true }
    }
    guard !failed, !policy.foundErrors else { return nil }
    let receipt = Receipt(
      items: items, discount: discount, discountItems: discountItems, service: service, tax: tax,
      taxIncluded: taxIncluded, tipOn: tipOn, receiptTotal: receiptTotal)
    do throws(SplitError) {
      _ = try receipt.figures(currency: currency, rounding: rounding)
    } catch {
      let key: BillKey
      switch error {
      case .unknownDiscountItem: key = .discountItems
      case .discountTooLarge: key = .discount
      case .includedTaxTooLarge: key = .tax
      default: key = .items
      }
      try policy.report(.error(.split(error), at: fields.valueLocation(key)))
      return nil
    }
    return receipt
  }

  /// One line, its rules checked; `nil` when any is broken (each reported).
  private mutating func item<Policy: ProblemPolicy>(
    _ source: ItemSource, currency: Currency, diners: Diners?, _ policy: inout Policy
  ) throws(Policy.Stop) -> ReceiptItem? {
    var failed = !source.problems.isEmpty
    for problem in source.problems { try policy.report(problem) }
    let name = source.name?.text.trimmingSpaces ?? ""
    if name.isEmpty {
      try policy.report(.error(.itemMissing(key: "name"), at: source.name?.location ?? source.start))
      failed = true
    }
    var price: Money?
    if let text = source.price {
      do {
        price = try Money(parsing: text.text.trimmingSpaces, currency: currency, decimalComma: options.decimalComma)
      } catch {
        try policy.report(.error(.itemPrice(item: name, error), at: text.location))
      }
    } else {
      try policy.report(.error(.itemMissing(key: "price"), at: source.start))
    }
    var quantity = Weight.one
    if let text = source.quantity {
      do {
        quantity = try Weight(parsing: text.text.trimmingSpaces, decimalComma: options.decimalComma)
      } catch {
        try policy.report(.error(.itemQuantity(item: name, error), at: text.location))
        failed = true
      }
    }
    var sharers: [Diner]?
    if let given = source.sharers {
      sharers = try self.sharers(given, of: name, at: source.sharersLocation ?? source.start, diners: diners, &policy)
      if sharers == nil { failed = true }
    }
    guard !failed, let price else { return nil }
    do throws(SplitError) {
      return try ReceiptItem(name: name, price: price, quantity: quantity, sharers: sharers)
    } catch {
      try policy.report(.error(.split(error), at: source.quantity?.location ?? source.price?.location ?? source.start))
      return nil
    }
  }

  /// An item's sharers: diners of the bill, each once, with valid weights; `nil` when not.
  private mutating func sharers<Policy: ProblemPolicy>(
    _ given: [ItemSource.Sharer], of item: String, at location: SourceLocation, diners: Diners?, _ policy: inout Policy
  ) throws(Policy.Stop) -> [Diner]? {
    guard !given.isEmpty else {
      try policy.report(.error(.split(.noItemSharers(item: item)), at: location))
      return nil
    }
    if let diners, diners.isAnonymous {
      try policy.report(.error(.split(.itemsNeedNamedDiners(item: item)), at: location))
      return nil
    }
    let dinerNames = diners?.list.map(\.name) ?? []
    let dinerIndex = NameIndex(dinerNames)
    var listed = NameIndex()
    var failed = false
    var list: [Diner] = []
    for sharer in given {
      // Made once per spelling, as the bill's own names are.
      let name = names.value(for: sharer.name.text.utf8.span) { PersonName.normalized(sharer.name.text) } ?? ""
      guard !name.isEmpty else {
        try policy.report(.error(.emptyDinerName, at: sharer.name.location))
        failed = true
        continue
      }
      if listed.contains(name) {
        try policy.report(.error(.itemSharerRepeated(item: item, person: name), at: sharer.name.location))
        failed = true
        continue
      }
      if diners != nil && !dinerIndex.contains(name) {
        try policy.report(
          .error(
            .itemSharerNotDiner(
              item: item, person: name,
              guess: Policy.stopsAtFirstProblem ? nil : suggestion(for: name, among: dinerNames)),
            at: sharer.name.location))
        failed = true
        continue
      }
      var weight = Weight.one
      if let text = sharer.weight, !text.text.isEmpty {
        do {
          weight = try Weight(parsing: text.text.trimmingSpaces, decimalComma: options.decimalComma)
        } catch {
          try policy.report(.error(.itemWeight(item: item, error), at: text.location))
          failed = true
          continue
        }
      }
      list.append(Diner(name: name, weight: weight))
      listed.append(name)
    }
    return failed ? nil : list
  }

  /// A discount, service or tax: a percentage when it ends in `%`, else an amount in `currency`.
  private func adjustment<Fields: BillFields & ~Copyable & ~Escapable, Policy: ProblemPolicy>(
    _ key: BillKey, _ fields: borrowing Fields, currency: Currency, _ policy: inout Policy
  ) throws(Policy.Stop) -> Adjustment? {
    guard let text = try Self.text(key, fields, &policy) else { return nil }
    let written = fields.string(text).trimmingSpaces
    do {
      return try Adjustment(parsing: written, currency: currency, decimalComma: options.decimalComma)
    } catch {
      try policy.report(.error(.adjustment(key: key.name, text: written), at: fields.location(of: text)))
      return nil
    }
  }
}
