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
/// Where the screen is drawn: `/dev/tty`, else standard error. Set before any handler is installed.
private let screenDescriptor = Atomic<Int32>(2)

/// What puts the screen back: colours reset, cursor shown, alternate screen left. A static
/// string: its bytes are in the binary, so writing them allocates nothing.
private let terminalReset: StaticString = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

/// Leaves the alternate screen, shows the cursor and restores the terminal's settings.
/// Async-signal-safe: only `write` and `tcsetattr`, on memory that exists before any signal
/// (no allocation, no lock).
private func restoreTerminal() {
  guard terminalIsRaw.exchange(0, ordering: .sequentiallyConsistent) != 0 else { return }
  _ = unsafe write(
    screenDescriptor.load(ordering: .sequentiallyConsistent), terminalReset.utf8Start,
    terminalReset.utf8CodeUnitCount)
  unsafe tcsetattr(0, TCSAFLUSH, savedTerminal)
}

/// Standard input as a terminal in raw mode, with a screen drawn on `/dev/tty` (so standard output
/// can be redirected): the calculator's screen. One per process; the terminal is always restored,
/// by ``restore()`` and on SIGTERM, SIGHUP, SIGINT and SIGQUIT, after which the signal's default
/// action ends the process.
package enum RawTerminal {
  /// Whether `descriptor` (0, 1, 2) is a terminal.
  package static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

  /// Opens `/dev/tty` for the screen (standard error when it cannot be opened), saves the terminal's
  /// settings and puts it in raw mode: no echo, no line editing, no signals from keys, one byte a
  /// read; then shows the alternate screen with the cursor hidden. `false` when standard input's
  /// settings cannot be read (it is not a terminal).
  package static func enter() -> Bool {
    let tty = unsafe open("/dev/tty", O_WRONLY | O_CLOEXEC)
    screenDescriptor.store(tty >= 0 ? tty : 2, ordering: .sequentiallyConsistent)
    guard unsafe tcgetattr(0, savedTerminal) == 0 else {
      if tty >= 0 { close(tty) }
      screenDescriptor.store(2, ordering: .sequentiallyConsistent)
      return false
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
    draw("\u{1B}[?1049h\u{1B}[?25l")
    return true
  }

  /// Puts the screen and the terminal's settings back and closes `/dev/tty`; again is harmless.
  package static func restore() {
    restoreTerminal()
    let descriptor = screenDescriptor.exchange(2, ordering: .sequentiallyConsistent)
    if descriptor != 2 { close(descriptor) }
  }

  /// Waits up to `milliseconds` for a key; whether one came.
  package static func waitForInput(milliseconds: Int32) -> Bool {
    var poller = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
    return unsafe poll(&poller, 1, milliseconds) > 0
  }

  /// The bytes of the keys typed so far (at most 256); `nil` at the end of input or on an error.
  package static func readKeys() -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = unsafe buffer.withUnsafeMutableBytes { unsafe read(0, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }
    buffer.removeLast(buffer.count - count)
    return buffer
  }

  /// Whether the window was resized since the last call.
  package static func takeWindowChange() -> Bool {
    windowChanged.exchange(0, ordering: .sequentiallyConsistent) != 0
  }

  /// The screen's size in columns and rows; `nil` when the terminal does not say.
  package static func size() -> (width: Int, height: Int)? {
    var size = winsize()
    guard unsafe ioctl(screenDescriptor.load(ordering: .sequentiallyConsistent), UInt(TIOCGWINSZ), &size) == 0,
      size.ws_col > 0
    else { return nil }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  /// Writes `text` to the screen (escape sequences and all).
  package static func draw(_ text: String) {
    _ = SystemCalls.write(Array(text.utf8), to: screenDescriptor.load(ordering: .sequentiallyConsistent))
  }
}
