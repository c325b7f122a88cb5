import SplitBillAdvisor
import SplitBillCore
import SplitBillFiles
import SplitBillInput
import SplitBillReports

/// `splitbill calc --interactive`: the original app's screen in a terminal.
///
/// Keys come from standard input (which must be a terminal); the screen is drawn on `/dev/tty`,
/// so standard output can be redirected, and on leaving it receives the final bill like plain
/// `calc`. The terminal is always restored: on q, Esc and Ctrl-C, and on SIGTERM, SIGHUP and
/// SIGINT from outside; a window resize redraws at the new size.
enum InteractiveCalc {
  static func run(_ arguments: ParsedArguments, _ context: inout CommandContext) async throws -> ExitCode {
    guard RawTerminal.isTerminal(0) else {
      throw UsageError(
        "calc --interactive needs a terminal; without one, use: splitbill calc AMOUNT --tip PERCENT --split N")
    }
    var screen = try initialScreen(arguments)
    let network = try AdvisorOptions.network(arguments, environment: context.environment)
    guard RawTerminal.enter() else {
      throw CommandFailure(message: "cannot read the terminal's settings", code: .usage)
    }
    defer { RawTerminal.restore() }
    let color = context.environment["NO_COLOR"].map(\.isEmpty) ?? true
    var decoder = KeyDecoder()
    draw(screen, color: color)
    loop: while true {
      let ready = RawTerminal.waitForInput(milliseconds: 200)
      if RawTerminal.takeWindowChange() { draw(screen, color: color) }
      guard ready else { continue }
      guard var bytes = RawTerminal.readKeys() else { break }
      // A lone ESC is the Escape key only if nothing follows it at once.
      if bytes == [0x1B], RawTerminal.waitForInput(milliseconds: 30), let more = RawTerminal.readKeys() {
        bytes += more
      }
      for key in decoder.keys(from: bytes) {
        switch screen.handle(key) {
        case .quit: break loop
        case .askAdvisor:
          let notes = screen.notes ?? ""
          // From the built-in default tip (the app's 15 %), not from the preset selected: the
          // advice is a second opinion, not a nudge of the choice already made.
          var advice = OfflineAdvisor().suggest(notes: notes, base: nil)
          if let network {
            let amount =
              (try? Money(parsing: screen.amountText, currency: Currency(code: screen.currencyText))) ?? .zero(.usd)
            let request = AdviceRequest(
              billID: "screen", amount: amount, diners: max(screen.people, 1), notes: notes, base: nil)
            var quiet = CommandContext(stdout: StringSink(), stderr: StringSink())
            advice = await AdvisorOptions.advise([request], network: network, context: &quiet)["screen"] ?? advice
          }
          screen.receive(advice)
        case .none: break
        }
      }
      draw(screen, color: color)
    }
    RawTerminal.restore()
    switch screen.result {
    case .success(let split):
      context.stdout.write(split.text)
      return .success
    case .failure(let error):
      context.message("no bill: \(error.message)")
      return .invalidBills
    }
  }

  /// The starting state from the usual calc options, so `calc 84.50 --tip 18 -i` opens filled in.
  static func initialScreen(_ arguments: ParsedArguments) throws(UsageError) -> CalcScreen {
    var screen = CalcScreen()
    if let amount = arguments.positionals.first { screen.amountText = amount }
    if let currency = arguments.value("--currency") { screen.currencyText = currency.uppercased() }
    if let tip = arguments.value("--tip") {
      if case .percent(let percent)? = TipText.parse(tip), Percent.presets.contains(percent) {
        screen.selectPreset(percent)
      } else {
        screen.preset = nil
        screen.customTipText = tip.filter { $0 != "%" && $0 != " " }
      }
    }
    if let split = arguments.value("--split"), let count = Int(split) { screen.people = count }
    if let people = arguments.value("--people") {
      screen.namesText = people.split(separator: ",").joined(separator: ", ")
    }
    screen.leftover = try arguments.choice("--leftover", LeftoverPolicy.self) ?? .balanced
    return screen
  }

  static func draw(_ screen: CalcScreen, color: Bool) {
    let (width, height) = RawTerminal.size() ?? (80, 24)
    let lines = CalcScreenView.render(screen, width: width, height: height, color: color)
    RawTerminal.draw("\u{1B}[H" + lines.joined(separator: "\u{1B}[K\r\n") + "\u{1B}[K\u{1B}[J")
  }
}

/// Turns terminal bytes into keys: arrows, Tab and Shift-Tab, Enter, Backspace, Esc, Ctrl-C, text.
struct KeyDecoder {
  private var pending: [UInt8] = []

  mutating func keys(from bytes: [UInt8]) -> [CalcScreen.Key] {
    var keys: [CalcScreen.Key] = []
    var input = pending + bytes
    pending = []
    var index = 0
    while index < input.count {
      let byte = input[index]
      switch byte {
      case 0x1B:
        if index + 2 < input.count, input[index + 1] == 0x5B || input[index + 1] == 0x4F {
          let arrows: [UInt8: CalcScreen.Key] = [0x41: .up, 0x42: .down, 0x43: .right, 0x44: .left, 0x5A: .backTab]
          if let key = arrows[input[index + 2]] { keys.append(key) }
          index += 3
          // skip the rest of longer sequences (function keys, modifiers)
          while index < input.count, input[index - 1] != 0x7E, (0x30...0x3F).contains(input[index - 1]) { index += 1 }
          continue
        }
        keys.append(.escape)
      case 0x03: keys.append(.interrupt)
      case 0x01: keys.append(.advise)
      case 0x09: keys.append(.tab)
      case 0x0D, 0x0A: keys.append(.enter)
      case 0x7F, 0x08: keys.append(.backspace)
      case 0x00...0x1F: break
      default:
        // One UTF-8 character.
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        guard index + length <= input.count else {
          pending = Array(input[index...])
          return keys
        }
        if let text = String(validating: input[index..<index + length], as: UTF8.self), let character = text.first {
          keys.append(.character(character))
        }
        index += length
        continue
      }
      index += 1
    }
    input.removeAll()
    return keys
  }
}
