import SplitBillAdvisor
import SplitBillCore
import SplitBillInput
import SplitBillReports

/// `splitbill suggest`: the original app's "ask AI for advice" sheet as a command.
enum SuggestCommand {
  static let command = Command(
    name: "suggest",
    summary: "suggest a tip percentage from a description of the experience, with the reason",
    usage: "splitbill suggest NOTES [--amount AMOUNT [--currency CODE] [--split N | --people NAMES]] [advisor options]",
    options: [
      .value("--amount", "AMOUNT", "The bill before tip: also print the tip, total and shares."),
      .value("--currency", "CODE", "ISO 4217 currency code of --amount (default USD)."),
      .value("--split", "N", "Split among N people (default 1)."),
      .value("--people", "NAMES", "Split among named people: Ana,Ben=2,Chloé."),
      .value("--default-tip", "PERCENT", "Where the offline advisor starts when the notes say nothing (default 15)."),
      .value(
        "--leftover", "POLICY", "Who absorbs leftover units: balanced (default), remainder, first, payer, to-tip.",
        choices: LeftoverPolicy.allCases.map(\.rawValue)),
      .flag("--json", "Print the advice (and the bill, with --amount) as JSON."),
    ] + AdvisorOptions.specs(section: "Advisor"),
    details: """
      The offline advisor (default) reads the notes for cues about service, food, waiting and
      atmosphere and says which it matched. --advisor gemini or openai asks a model instead, falling
      back to the offline advisor if the network fails (unless --require-ai).
      """,
    examples: [
      "splitbill suggest \"Lovely waiter, but the kitchen was slow\"",
      "splitbill suggest \"Excellent food, friendly staff\" --amount 84.50 --currency EUR --people Ana,Ben,Chloé",
      "GEMINI_API_KEY=... splitbill suggest \"Great view, slow service\" --advisor gemini",
    ],
    run: run)

  static func run(_ arguments: ParsedArguments, _ context: inout CommandContext) async throws -> ExitCode {
    guard arguments.positionals.count == 1, let notes = arguments.positionals.first else {
      throw UsageError(
        "give the experience as one quoted argument, for example: splitbill suggest \"slow but friendly\"")
    }
    let base = try arguments.parse("--default-tip") { text in
      switch try TipText.parsing(text) {
      case .percent(let percent): return percent
      case .advisor: throw UsageError("the advice starts from a percentage such as 15, not 'ai'")
      }
    }
    // The bill's options describe the bill: without --amount there is none, and they would do
    // nothing (a configuration file's are defaults, for when there is one).
    if arguments.value("--amount") == nil,
      let idle = ["--currency", "--split", "--people", "--leftover"].first(where: {
        arguments.value($0) != nil && !arguments.configured.contains($0)
      })
    {
      throw UsageError("\(idle) needs --amount: without a bill there is nothing to split or price")
    }
    let currency = try arguments.parse("--currency") { text throws(MoneyError) in try Currency(code: text) } ?? .usd
    let amount = try arguments.parse("--amount") { text throws(MoneyError) in
      try Money(parsing: text, currency: currency)
    }
    let diners = try CalcCommand.diners(from: arguments)
    var advice = OfflineAdvisor().suggest(notes: notes, base: base)
    if let network = try AdvisorOptions.network(arguments, environment: context.environment) {
      let request = AdviceRequest(
        billID: "suggest", amount: amount ?? Money.zero(currency), diners: diners.count, notes: notes, base: base)
      advice = await AdvisorOptions.advise([request], network: network, context: &context)["suggest"] ?? advice
      if network.requireAI && advice.fallback {
        throw CommandFailure(
          message: "no advice from \(network.provider.name): \(advice.fallbackReason ?? "no answer")",
          code: .unavailable)
      }
    }
    var split: BillSplit?
    if let amount {
      var ledger = LeftoverLedger()
      let terms = BillTerms(
        amount: amount, tip: .percent(advice.percent), diners: diners,
        leftover: try arguments.choice("--leftover", LeftoverPolicy.self) ?? .balanced)
      do {
        split = try terms.split(ledger: &ledger)
      } catch {
        throw UsageError(error.description)
      }
    }
    if arguments.flag("--json") {
      context.stdout.write(advice.suggestionJSON(bill: split) + "\n")
      return .success
    }
    var lines = ["Suggested tip: \(advice.percent)", "Reason: " + TerminalText.sanitize(advice.reason)]
    var source = "Advisor: \(advice.advisor)" + (advice.model.map { " (\(TerminalText.sanitize($0)))" } ?? "")
    if advice.fallback { source += ", fallback: " + TerminalText.sanitize(advice.fallbackReason ?? "no answer") }
    if advice.clamped { source += ", clamped to the allowed range" }
    lines.append(source)
    context.stdout.write(lines.joined(separator: "\n") + "\n")
    if let split { context.stdout.write("\n" + split.text) }
    return .success
  }
}
