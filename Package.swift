// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "splitbill",
  products: [
    .executable(name: "splitbill", targets: ["splitbill"]),
    .library(name: "SplitBillCore", targets: ["SplitBillCore"]),
  ],
  targets: [
    // Exact money, tips, splits, leftover allocation and settlement. No I/O, no Double.
    .target(name: "SplitBillCore"),
    // Writers: JSON, text and the other report formats, streaming into a sink.
    .target(name: "SplitBillReports", dependencies: ["SplitBillCore"]),
    // Argument parsing and the commands; the executable only calls `SplitBillCommandLine.main`.
    .target(name: "SplitBillCLI", dependencies: ["SplitBillCore", "SplitBillReports"]),
    .executableTarget(name: "splitbill", dependencies: ["SplitBillCLI", "SplitBillReports"]),

    .testTarget(name: "SplitBillCoreTests", dependencies: ["SplitBillCore"]),
    .testTarget(name: "SplitBillReportsTests", dependencies: ["SplitBillReports"]),
    .testTarget(name: "SplitBillCLITests", dependencies: ["SplitBillCLI", "SplitBillReports"]),
  ]
)
