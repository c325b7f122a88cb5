import Foundation
import SplitBill
import SplitBillCore
import SplitBillInput
import SplitBillModel

/// The options every command that reads bill files shares.
enum InputOptions {
  static let specs: [OptionSpec] = [
    .value("--currency", "CODE", "Currency of bills and files that name none (else such a bill is an error)."),
    .value("--default-tip", "TIP", "Default tip for bills and files that give none: a percentage or 'ai'."),
    .value(
      "--leftover", "POLICY", "Default leftover policy: balanced, remainder, first, payer, to-tip.",
      choices: LeftoverPolicy.allCases.map(\.rawValue)),
    .value(
      "--rounding", "MODE", "Default tip rounding: half-up, half-even, up, down.",
      choices: RoundingMode.allCases.map(\.rawValue)),
    .value(
      "--input-format", "FORMAT", "Format of standard input ('-') and of files with other names: yaml or csv.",
      choices: InputFormat.allCases.map(\.rawValue)),
    .value(
      "--delimiter", "CHAR", "CSV delimiter: ',', ';' or 'tab' (default: detected from the header).",
      choices: [",", ";", "tab"], acceptsOtherSpellings: true),
    .flag("--decimal-comma", "Read amounts, percentages and weights written as 84,50."),
    .value(
      "--people", "NAMES",
      "The roster, comma-separated, of every file without its own (CSV files; YAML without people:): a name outside it is an error."
    ),
    .flag("--allow-empty", "Accept inputs that hold no bills (an empty file or directory) instead of exiting 66."),
    .value(
      "--whole-units", "CODES",
      "Currencies kept in whole units in every file, comma-separated (HUF): amounts, tips, shares and transfers whole."
    ),
    .value(
      "--max-instances", "N",
      "The most bills the recurring bills of a run expand to, all rules together (default 100000): a rule past it is an error."
    ),
  ]

  /// The extensions of bill files, for completions (directories complete too).
  static let extensions = ["yaml", "yml", "csv", "tsv"]

  /// The failure of a directory named as an input that holds no bill file.
  static func noBillFiles(in directory: String) -> CommandFailure {
    CommandFailure(message: ReportRun.noBillFilesMessage(in: directory).commandLine, code: .noInput)
  }

  /// The failure of inputs that held no bill at all.
  static func noBills(_ arguments: ParsedArguments, writes: Bool) -> CommandFailure {
    CommandFailure(message: ReportRun.noBillsMessage(arguments.positionals, writes: writes).commandLine, code: .noInput)
  }

  /// The reading options the arguments give; every mistake names its option.
  static func readOptions(_ arguments: ParsedArguments) throws(UsageError) -> ReadingOptions {
    let decimalComma = arguments.flag("--decimal-comma")
    var options = ReadingOptions(decimalComma: decimalComma, allowEmpty: arguments.flag("--allow-empty"))
    options.paymentDetails = arguments.payees
    options.currency = try arguments.parse("--currency") { text throws(MoneyError) in try Currency(code: text) }
    options.defaultTip = try arguments.parse("--default-tip") { text -> ReadingOptions.DefaultTip in
      do throws(PercentError) {
        switch try TipText.parsing(text, decimalComma: decimalComma) {
        case .percent(let percent): return .percent(percent)
        case .advisor: return .advisor
        }
      } catch {
        throw UsageError(error.message(field: "tip") + " (or 'ai')")
      }
    }
    options.leftover = try arguments.choice("--leftover", LeftoverPolicy.self)
    options.rounding = try arguments.choice("--rounding", RoundingMode.self)
    options.delimiter = try arguments.parse("--delimiter") { text -> UInt8 in
      switch text {
      case ",", "comma": return 0x2C
      case ";", "semicolon": return 0x3B
      case "\t", "tab", "\\t": return 0x09
      case "|", "pipe": return 0x7C
      default: throw UsageError("'\(text)' is not a delimiter: expected ',', ';', 'tab' or '|'")
      }
    }
    // The names `calc --people` and a diners cell read (the diner-list grammar), without weights.
    options.people = try arguments.parse("--people") { text throws(UsageError) -> [String] in
      let diners: [Diner]
      do throws(DinerList.Problem) {
        diners = try DinerList.diners(in: text, decimalComma: decimalComma)
      } catch .emptyName {
        throw UsageError("'\(text)' has an empty name: expected names separated by commas, such as 'Ana, Ben, Chloé'")
      } catch .diners(.duplicateDiner(let name)) {
        throw UsageError("'\(name)' is listed twice")
      } catch {
        throw UsageError(error.description)
      }
      if let weighted = diners.first(where: { $0.weight != .one }) {
        throw UsageError("'\(weighted.name)' has a weight: a roster lists names only, such as 'Ana, Ben, Chloé'")
      }
      return diners.map(\.name)
    }
    let wholeUnits = try arguments.parse("--whole-units") { text throws(UsageError) -> Set<Currency> in
      var found: Set<Currency> = []
      for code in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !code.isEmpty {
        guard let currency = try? Currency(code: code) else {
          throw UsageError("'\(code)' is not an ISO 4217 currency: expected codes such as HUF or HUF,CLP")
        }
        found.insert(currency)
      }
      return found
    }
    options.format = try arguments.choice("--input-format", ReadingOptions.Format.self)
    options.instanceLimit = try arguments.wholeNumber(
      "--max-instances", default: ReadingOptions.defaultInstanceLimit, range: 1...100_000_000)
    if let wholeUnits { options.wholeUnits = wholeUnits }
    return options
  }
}
