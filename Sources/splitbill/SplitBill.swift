import SplitBillCLI
import SplitBillReports

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The executable: the process's streams, environment and exit code around `SplitBillCommandLine`.
@main
enum SplitBill {
  static func main() async {
    signal(SIGPIPE, SIG_IGN)
    // Past a file-size limit, a write fails (EFBIG) and is reported, rather than killing the run.
    signal(SIGXFSZ, SIG_IGN)
    let out = FileDescriptorSink(descriptor: 1)
    let err = FileDescriptorSink(descriptor: 2)
    var context = CommandContext(
      stdout: out, stderr: err,
      environment: SplitBillCommandLine.processEnvironment(),
      stdoutIsTerminal: isatty(1) == 1, stderrIsTerminal: isatty(2) == 1)
    context.stdinIsTerminal = isatty(0) == 1
    let code = await SplitBillCommandLine.run(Array(CommandLine.arguments.dropFirst()), context: &context)
    out.flush()
    if let reason = out.failureReason {
      // What was printed is not the whole output: one message, and the run fails.
      err.write("splitbill: cannot write standard output: \(reason)\n")
      err.flush()
      exit(ExitCode.ioError.rawValue)
    }
    err.flush()
    exit(err.failed ? ExitCode.ioError.rawValue : code)
  }
}
