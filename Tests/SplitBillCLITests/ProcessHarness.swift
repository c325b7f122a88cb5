import Foundation
import Testing

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

/// Runs a program to completion; returns its exit code and outputs.
@discardableResult
func runProcess(
  _ executable: URL, _ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil,
  directory: URL = packageRoot
) throws -> Outcome {
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  process.currentDirectoryURL = directory
  if let environment { process.environment = environment }
  let output = Pipe()
  let error = Pipe()
  let input = Pipe()
  process.standardOutput = output
  process.standardError = error
  process.standardInput = input
  try process.run()
  if let stdin { input.fileHandleForWriting.write(stdin) }
  try input.fileHandleForWriting.close()
  // Read both pipes while the process runs so neither fills up.
  nonisolated(unsafe) var errorData = Data()
  let reader = Thread { errorData = error.fileHandleForReading.readDataToEndOfFile() }
  reader.start()
  let outputData = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  while !reader.isFinished { usleep(1000) }
  return Outcome(
    code: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
    stderr: String(decoding: errorData, as: UTF8.self))
}

/// Runs the built `splitbill` from the package root.
@discardableResult
func runBinary(_ arguments: [String], stdin: Data? = nil) throws -> Outcome {
  try runProcess(try builtBinary(), arguments, stdin: stdin)
}

/// Whether `python3 -c code` exits 0 (used to skip tests whose tools are missing).
func pythonHas(_ code: String) -> Bool {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["python3", "-c", code]
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  guard (try? process.run()) != nil else { return false }
  process.waitUntilExit()
  return process.terminationStatus == 0
}
