import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The package root, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// The built `splitbill` next to the test bundle (`swift build` puts both in `.build/<config>/`).
func builtBinary() throws -> URL {
  let directory = Bundle.main.bundleURL.deletingLastPathComponent()
  for candidate in [directory, Bundle.main.bundleURL] {
    let url = candidate.appendingPathComponent("splitbill")
    if FileManager.default.isExecutableFile(atPath: url.path) { return url }
  }
  let fallback = packageRoot.appendingPathComponent(".build/debug/splitbill")
  return try #require(FileManager.default.isExecutableFile(atPath: fallback.path) ? fallback : nil)
}

/// A child process started with `posix_spawnp` and reaped with `waitpid`.
///
/// The tests do not use Foundation's `Process`: on Linux its `waitUntilExit` can miss a child's exit
/// and wait forever (seen here when the test runner was started without a terminal; the child was a
/// zombie nobody reaped). `waitpid` does not depend on signals or run loops, and every wait here has a
/// deadline, so a stuck child fails its test instead of hanging the run.
struct ChildProcess {
  private static let spawnLock = NSLock()

  let pid: pid_t

  enum Failure: Error, CustomStringConvertible {
    case spawn(String, Int32)
    case timedOut([String], seconds: Int)

    var description: String {
      switch self {
      case .spawn(let program, let code): "could not start \(program): \(String(cString: strerror(code)))"
      case .timedOut(let arguments, let seconds): "\(arguments.joined(separator: " ")) ran over \(seconds) s; killed"
      }
    }
  }

  /// Starts `arguments` (the program is looked up on `PATH`) with the given standard streams.
  /// `environment` nil inherits this process's environment.
  init(
    _ arguments: [String], stdin: Int32, stdout: Int32, stderr: Int32, environment: [String: String]? = nil,
    directory: String? = nil
  ) throws {
    Self.ignoreBrokenPipes
    // Glibc's Swift module does not offer posix_spawn_file_actions_addchdir_np: a shell changes
    // directory and then becomes the program.
    let arguments =
      directory.map { ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", $0] + arguments } ?? arguments
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, stdin, 0)
    posix_spawn_file_actions_adddup2(&actions, stdout, 1)
    posix_spawn_file_actions_adddup2(&actions, stderr, 2)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // The child starts with default signal handling and nothing blocked, whatever the runner had.
    var all = sigset_t()
    sigfillset(&all)
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

    // A child given an environment of its own still gets the sanitizers' settings (the
    // sanitizer runs of .ci/run build the binary it starts with them too).
    let inherited = ProcessInfo.processInfo.environment
    let sanitizers = inherited.filter { $0.key.hasSuffix("SAN_OPTIONS") }
    let environmentLines =
      environment.map { $0.merging(sanitizers) { given, _ in given }.map { "\($0.key)=\($0.value)" } }
      ?? inherited.map { "\($0.key)=\($0.value)" }
    var argv = arguments.map { strdup($0) } + [nil]
    var envp = environmentLines.map { strdup($0) } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var child: pid_t = 0
    let code = Self.spawnLock.withLock { posix_spawnp(&child, arguments[0], &actions, &attributes, &argv, &envp) }
    guard code == 0 else { throw Failure.spawn(arguments[0], code) }
    pid = child
  }

  /// Makes a pipe whose ends are closed on exec, so no other test's child inherits them (which would
  /// hold the pipe open). Pipes are made and children spawned under one lock: Glibc's Swift module
  /// has no `pipe2`, and a spawn between `pipe` and `fcntl` would leak the ends.
  static func pipe() throws -> (read: Int32, write: Int32) {
    try spawnLock.withLock {
      var ends: [Int32] = [0, 0]
      guard Glibc.pipe(&ends) == 0 else { throw Failure.spawn("pipe", errno) }
      for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
      return (ends[0], ends[1])
    }
  }

  /// Writing to a child that has exited must fail with EPIPE, not kill the test runner.
  private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

  /// Reaps the child if it has exited: its exit code (128 + signal if killed), or nil if still running.
  func exitCodeIfDone() -> Int32? {
    var status: Int32 = 0
    let result = waitpid(pid, &status, WNOHANG)
    if result == pid { return Self.exitCode(status) }
    if result < 0 && errno == ECHILD { return -1 }  // reaped elsewhere: no code to give
    return nil
  }

  /// Kills the child and reaps it.
  func kill() {
    Glibc.kill(pid, SIGKILL)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  }

  private static func exitCode(_ status: Int32) -> Int32 {
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : 128 + signal
  }
}

/// Runs a program to completion; returns its exit code and outputs. The program is found on `PATH`
/// if `executable` has no slash. A run over `timeout` seconds is killed and throws.
@discardableResult
func runProcess(
  _ executable: String, _ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil,
  directory: URL = packageRoot, timeout: Int = 120
) throws -> Outcome {
  let input = try ChildProcess.pipe()
  let output = try ChildProcess.pipe()
  let errors = try ChildProcess.pipe()
  defer { close(input.read) }
  let child: ChildProcess
  do {
    defer {
      close(output.write)
      close(errors.write)
    }
    child = try ChildProcess(
      [executable] + arguments, stdin: input.read, stdout: output.write, stderr: errors.write,
      environment: environment, directory: directory.path)
  } catch {
    for descriptor in [input.write, output.read, errors.read] { close(descriptor) }
    throw error
  }

  // Feed standard input from another thread so a child that writes before it reads cannot deadlock.
  let bytes = [UInt8](stdin ?? Data())
  let writeEnd = input.write
  let writer = Thread {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
      if written < 0 && errno == EINTR { continue }
      if written <= 0 { break }
      offset += written
    }
    close(writeEnd)
  }
  writer.start()

  var collected: [Int32: [UInt8]] = [output.read: [], errors.read: []]
  var open = [output.read, errors.read]
  let deadline = Date().addingTimeInterval(TimeInterval(timeout))
  var code: Int32?
  var buffer = [UInt8](repeating: 0, count: 65536)
  while !open.isEmpty {
    if code == nil { code = child.exitCodeIfDone() }
    if Date() > deadline {
      child.kill()
      for descriptor in open { close(descriptor) }
      while !writer.isFinished { usleep(1000) }
      throw ChildProcess.Failure.timedOut([executable] + arguments, seconds: timeout)
    }
    var polls = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    // Once the child has exited, read only what is already in the pipes: a grandchild that kept
    // them open (a daemon) must not keep this test waiting.
    let ready = poll(&polls, nfds_t(polls.count), code == nil ? 50 : 0)
    if ready < 0 && errno == EINTR { continue }
    if ready <= 0 {
      if code != nil { break }
      continue
    }
    for entry in polls where entry.revents != 0 {
      let count = read(entry.fd, &buffer, buffer.count)
      if count > 0 {
        collected[entry.fd, default: []].append(contentsOf: buffer[0..<count])
      } else if count == 0 || errno != EINTR {
        close(entry.fd)
        open.removeAll { $0 == entry.fd }
      }
    }
  }
  for descriptor in open { close(descriptor) }
  while code == nil {
    code = child.exitCodeIfDone()
    if code == nil {
      if Date() > deadline {
        child.kill()
        throw ChildProcess.Failure.timedOut([executable] + arguments, seconds: timeout)
      }
      usleep(1000)
    }
  }
  while !writer.isFinished { usleep(1000) }
  return Outcome(
    code: code ?? -1, stdout: String(decoding: collected[output.read] ?? [], as: UTF8.self),
    stderr: String(decoding: collected[errors.read] ?? [], as: UTF8.self))
}

/// Runs the built `splitbill` from the package root.
@discardableResult
func runBinary(_ arguments: [String], stdin: Data? = nil) throws -> Outcome {
  try runProcess(try builtBinary().path, arguments, stdin: stdin)
}

/// Whether `python3 -c code` exits 0 (used to skip tests whose tools are missing).
func pythonHas(_ code: String) -> Bool {
  (try? runProcess("python3", ["-c", code]))?.code == 0
}

/// Whether `command` is on the PATH.
func toolExists(_ command: String) -> Bool {
  (try? runProcess("sh", ["-c", "command -v \(command)"]))?.code == 0
}

/// Whether a test that needs an external tool runs: when the tool is there, and always under CI
/// (`CI=true`, which .ci/run sets after installing every tool), so that a missing tool fails CI
/// instead of being skipped there. Elsewhere the test shows as skipped, with what to install.
func needing(_ present: @autoclosure () -> Bool) -> Bool {
  ProcessInfo.processInfo.environment["CI"] == "true" || present()
}
