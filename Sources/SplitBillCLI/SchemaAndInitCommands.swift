import SplitBillCore
import SplitBillJSON
import SplitBillModel
import SplitBillReports

/// `splitbill schema`: the JSON Schema of the bill format.
enum SchemaCommand {
  static let command = Command(
    name: "schema",
    summary: "print the JSON Schema (2020-12) of the YAML bill format, for editors",
    usage: "splitbill schema",
    options: [],
    details: """
      Save it and point yaml-language-server at it, e.g. with a first line in each bill file:
        # yaml-language-server: $schema=./splitbill.schema.json
      """,
    examples: ["splitbill schema > splitbill.schema.json"],
    run: { arguments, context in
      guard arguments.positionals.isEmpty else { throw UsageError("schema takes no arguments") }
      json(BillSchema.document).write(to: &context.stdout)
      context.stdout.write("\n")
      return .success
    })

  static func json(_ node: BillSchema.Node) -> JSON {
    switch node {
    case .string(let text): return .string(text)
    case .integer(let value): return .int(value)
    case .bool(let value): return .bool(value)
    case .array(let items): return .array(items.map(json))
    case .object(let members): return .object(members.map { ($0.0, json($0.1)) })
    }
  }
}

/// `splitbill init`: a commented starter file that passes `check`.
enum InitCommand {
  static let command = Command(
    name: "init",
    summary: "write a commented starter bill file (to FILE, or to stdout)",
    usage: "splitbill init [FILE] [--force]",
    options: [.flag("--force", "Overwrite FILE if it exists.")],
    examples: ["splitbill init trip.yaml", "splitbill init > bills.yaml"],
    run: run, operands: ["yaml"])

  static let starter = """
    # yaml-language-server: $schema=./splitbill.schema.json   (splitbill schema > splitbill.schema.json)
    # A splitbill file, format version 1. Check it with: splitbill check THIS_FILE
    version: 1

    # Used by every bill below that does not say otherwise (all optional).
    defaults:
      currency: EUR        # ISO 4217 code; JPY has no decimals, KWD has three
      tip: 15%             # a percentage, or "ai" to ask the advisor
      leftover: balanced   # who absorbs leftover cents: balanced, remainder, first, payer, to-tip
      rounding: half-up    # how a percentage tip is rounded: half-up, half-even, up, down

    # Optional roster: when present, every diner and payer must be one of these names. A person
    # may carry payment details the reports show beside what others pay them (in HTML, an EPC
    # QR code a banking app scans, for a transfer in euros), for example:
    #   - {name: Ben, iban: DE89 3704 0044 0532 0130 00, bic: COBADEFFXXX, link: https://paypal.me/ben}
    people: [Ana, Ben, Chloé]

    bills:
      - id: first-dinner            # optional, unique; default "<file>#<n>"
        date: 2026-11-20            # optional, YYYY-MM-DD
        description: Dinner
        category: food              # optional: where the money went (groceries, rent, transport, ...)
        amount: 84.50               # the bill before tip, written exactly
        diners: [Ana, Ben, Chloé]   # a list of names, or name: weight
        paid_by: Ana

      - id: lunch
        date: 2026-11-21
        amount: 42.00
        tip_amount: 4.00            # a fixed tip instead of a percentage (never both)
        diners: {Ana: 2, Ben: 1}    # Ana pays two parts
        paid_by: Ben
        notes: "Quick and friendly"  # experience notes, for tip: ai
        # repeat: {every: month, until: 2027-06-30}   # a recurring bill: one instance a month

      # A one-off split among strangers: "diners: 4" splits it four ways, but a head count is
      # nobody's balance, so give it no paid_by (a payer would not be paid back; check warns).
      # - {id: taxi, amount: 38.00, tip: 0, diners: 4}

      - id: itemized-receipt        # items instead of an amount: who had what
        date: 2026-11-22
        diners: [Ana, Ben, Chloé]
        paid_by: Chloé
        tip: 18%                    # on the subtotal before tax (tip_on: pretax; or subtotal, total)
        tax: 10%                    # added on top; tax_included: true when prices hold it (VAT)
        # discount: 10%             # or an amount; discount_items: [Wine] puts it on some items only
        # service: 12.5%            # a service charge on the subtotal after discount
        receipt_total: 59.95        # optional: the printed total, checked to the cent
        items:
          - {name: Burrata, price: 14.00, for: [Ana, Ben]}      # shared
          - {name: Risotto, price: 19.00, for: Chloé}
          - {name: Wine (glass), price: 6.00, quantity: 3}      # no for: everyone
          - {name: Tiramisu, price: 3.50, for: {Ben: 1}}

    """

  static func run(_ arguments: ParsedArguments, _ context: inout CommandContext) throws -> ExitCode {
    guard arguments.positionals.count <= 1 else { throw UsageError("init takes at most one FILE") }
    guard let path = arguments.positionals.first, path != "-" else {
      context.stdout.write(starter)
      return .success
    }
    do {
      try AtomicFile.write(to: path, overwrite: arguments.flag("--force")) { sink in sink.write(starter) }
    } catch {
      throw CommandFailure(message: "\(error)", code: .cannotCreate)
    }
    context.message("wrote \(path); check it with: splitbill check \(path)")
    return .success
  }
}
