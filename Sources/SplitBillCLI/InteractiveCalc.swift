import SplitBillAdvisor
import SplitBillCore
import SplitBillInput
import SplitBillReports
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The terminal's settings before raw mode, for restoring from anywhere, signal handlers included.
///
/// Room of `termios`'s stride, not a Swift variable of the type: C's `sizeof(struct termios)`
/// counts the tail padding that a Swift value's size leaves out (60 bytes against 57 here), and
/// `tcgetattr` writes all of it, `tcsetattr` reads all of it (found by AddressSanitizer: a write
/// past the variable). An allocation is made in strides.
nonisolated(unsafe) private let savedTerminal = UnsafeMutablePointer<termios>.allocate(capacity: 1)
/// Set and read by the signal handlers, which run on whichever thread the signal reaches (the
/// screen's loop runs on another): atomics, lock-free and so async-signal-safe. A plain
/// `sig_atomic_t` is only safe within one thread (ThreadSanitizer reported the race).
private let terminalIsRaw = Atomic<Int32>(0)
private let windowChanged = Atomic<Int32>(0)
nonisolated(unsafe) private var uiDescriptor: Int32 = -1

/// What puts the screen back: colours reset, cursor shown, alternate screen left. A static
/// string: its bytes are in the binary, so writing them allocates nothing.
private let terminalReset: StaticString = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

/// Leaves the alternate screen, shows the cursor and restores the terminal's settings.
/// Async-signal-safe: only `write` and `tcsetattr`, on memory that exists before any signal
/// (no allocation, no lock).
private func restoreTerminal() {
  guard terminalIsRaw.exchange(0, ordering: .sequentiallyConsistent) != 0 else { return }
  _ = unsafe write(uiDescriptor, terminalReset.utf8Start, terminalReset.utf8CodeUnitCount)
  unsafe tcsetattr(0, TCSAFLUSH, savedTerminal)
}

/// `splitbill calc --interactive`: the original app's screen in a terminal.
///
/// Keys come from standard input (which must be a terminal); the screen is drawn on `/dev/tty`,
/// so standard output can be redirected, and on leaving it receives the final bill like plain
/// `calc`. The terminal is always restored: on q, Esc and Ctrl-C, and on SIGTERM, SIGHUP and
/// SIGINT from outside; a window resize redraws at the new size.
enum InteractiveCalc {
  static func run(_ arguments: ParsedArguments, _ context: inout CommandContext) async throws -> ExitCode {
    guard isatty(0) == 1 else {
      throw UsageError(
        "calc --interactive needs a terminal; without one, use: splitbill calc AMOUNT --tip PERCENT --split N")
    }
    var screen = try initialScreen(arguments)
    let network = try AdvisorOptions.network(arguments, environment: context.environment)
    let tty = unsafe open("/dev/tty", O_WRONLY)
    unsafe uiDescriptor = tty >= 0 ? tty : 2
    defer {
      restoreTerminal()
      if tty >= 0 { close(tty) }
    }
    try enterRawMode()
    let color = context.environment["NO_COLOR"].map(\.isEmpty) ?? true
    var decoder = KeyDecoder()
    draw(screen, color: color)
    loop: while true {
      var poller = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
      let ready = unsafe poll(&poller, 1, 200)
      if windowChanged.exchange(0, ordering: .sequentiallyConsistent) != 0 {
        draw(screen, color: color)
      }
      guard ready > 0 else { continue }
      var buffer = [UInt8](repeating: 0, count: 256)
      let count = unsafe buffer.withUnsafeMutableBytes { unsafe read(0, $0.baseAddress, $0.count) }
      if count <= 0 { break }
      // A lone ESC is the Escape key only if nothing follows it at once.
      var bytes = Array(buffer[0..<count])
      if bytes == [0x1B] {
        var next = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        if unsafe poll(&next, 1, 30) > 0 {
          let more = unsafe buffer.withUnsafeMutableBytes { unsafe read(0, $0.baseAddress, $0.count) }
          if more > 0 { bytes += buffer[0..<more] }
        }
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
    restoreTerminal()
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

  static func enterRawMode() throws {
    guard unsafe tcgetattr(0, savedTerminal) == 0 else {
      throw CommandFailure(message: "cannot read the terminal's settings", code: .usage)
    }
    // Room of the C size, as for the saved settings.
    let raw = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    defer { unsafe raw.deallocate() }
    unsafe raw.initialize(to: savedTerminal.pointee)
    unsafe raw.pointee.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
    unsafe raw.pointee.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
    unsafe raw.pointee.c_cc.6 = 1  // VMIN
    unsafe raw.pointee.c_cc.5 = 0  // VTIME
    // Touched before any handler can run: a global is made on first use, which a handler must
    // not be the one to do.
    windowChanged.store(0, ordering: .sequentiallyConsistent)
    terminalIsRaw.store(0, ordering: .sequentiallyConsistent)
    for signalNumber in [SIGTERM, SIGHUP, SIGINT, SIGQUIT] {
      signal(signalNumber) { number in
        restoreTerminal()
        signal(number, SIG_DFL)
        raise(number)
      }
    }
    signal(SIGWINCH) { _ in
      // A handler leaves `errno` as it found it.
      let saved = errno
      windowChanged.store(1, ordering: .sequentiallyConsistent)
      errno = saved
    }
    terminalIsRaw.store(1, ordering: .sequentiallyConsistent)
    unsafe tcsetattr(0, TCSAFLUSH, raw)
    emit("\u{1B}[?1049h\u{1B}[?25l")
  }

  static func draw(_ screen: CalcScreen, color: Bool) {
    var size = winsize()
    let width: Int
    let height: Int
    if unsafe ioctl(uiDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
      width = Int(size.ws_col)
      height = Int(size.ws_row)
    } else {
      width = 80
      height = 24
    }
    let lines = CalcScreenView.render(screen, width: width, height: height, color: color)
    emit("\u{1B}[H" + lines.joined(separator: "\u{1B}[K\r\n") + "\u{1B}[K\u{1B}[J")
  }

  static func emit(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = unsafe bytes[offset...].withUnsafeMutableBytes {
        unsafe write(uiDescriptor, $0.baseAddress, $0.count)
      }
      if written <= 0 { break }
      offset += written
    }
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
