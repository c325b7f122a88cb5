import SplitBillReports
import Testing

@testable import SplitBillCLI

/// One in-process run of `splitbill`: what it printed and how it exited.
struct Outcome {
  var code: Int32
  var stdout: String
  var stderr: String
}

/// Runs `splitbill` in-process with string sinks.
func runCLI(_ arguments: [String], environment: [String: String] = [:]) async -> Outcome {
  var context = CommandContext(stdout: StringSink(), stderr: StringSink(), environment: environment)
  let code = await SplitBillCommandLine.run(arguments, context: &context)
  return Outcome(
    code: code, stdout: (context.stdout as? StringSink)?.text ?? "", stderr: (context.stderr as? StringSink)?.text ?? ""
  )
}
