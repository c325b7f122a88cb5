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
    // libyaml from Debian's libyaml-dev, through pkg-config yaml-0.1.
    .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
    // Readers: YAML through libyaml's event API, CSV scanned as bytes; validation and diagnostics.
    .target(name: "SplitBillInput", dependencies: ["SplitBillCore", "CYAML"]),
    // Tip advice: the offline heuristic, AI providers, batching and rate limiting.
    .target(name: "SplitBillAdvisor", dependencies: ["SplitBillCore"]),
    // Writers: JSON, text and the other report formats, streaming into a sink.
    .target(name: "SplitBillReports", dependencies: ["SplitBillCore", "SplitBillInput"]),
    // Argument parsing and the commands; the executable only calls `SplitBillCommandLine.main`.
    .target(
      name: "SplitBillCLI", dependencies: ["SplitBillCore", "SplitBillInput", "SplitBillAdvisor", "SplitBillReports"]),
    .executableTarget(name: "splitbill", dependencies: ["SplitBillCLI", "SplitBillReports"]),

    .testTarget(name: "SplitBillCoreTests", dependencies: ["SplitBillCore"]),
    .testTarget(name: "SplitBillInputTests", dependencies: ["SplitBillInput"], resources: [.copy("Fixtures")]),
    .testTarget(name: "SplitBillAdvisorTests", dependencies: ["SplitBillAdvisor"]),
    .testTarget(name: "SplitBillReportsTests", dependencies: ["SplitBillReports"]),
    .testTarget(
      name: "SplitBillCLITests", dependencies: ["SplitBillCLI", "SplitBillInput", "SplitBillReports"],
      exclude: ["Snapshots"]),
  ]
)
