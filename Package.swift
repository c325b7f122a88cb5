// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "splitbill",
  products: [
    .executable(name: "splitbill", targets: ["splitbill"]),
    .library(name: "SplitBillCore", targets: ["SplitBillCore"]),
  ],
  targets: [
    // Exact money, percentages, tips, splits, leftover allocation, the bill's terms and
    // settlement. No I/O, no Double, no parsing of files.
    .target(name: "SplitBillCore", dependencies: ["SplitBillBytes"]),
    // Byte plumbing, not API: a cursor that writes into room made beforehand, a table of short
    // byte strings, people numbered by name, word-at-a-time scans, a seeded bit mixer. The
    // package's pointer code lives here.
    // Every unsafe use there is marked `unsafe` and checked by the compiler (SE-0458).
    .target(name: "SplitBillBytes", swiftSettings: [.strictMemorySafety()]),
    // JSON values: parsing (AI replies, the advice cache) and writing (reports, `calc --json`).
    .target(name: "SplitBillJSON", dependencies: ["SplitBillBytes"]),
    // Text helpers every writer and reader shares: trimming, control characters, did-you-mean.
    .target(name: "SplitBillText"),
    // libyaml from Debian's libyaml-dev, through pkg-config yaml-0.1.
    .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
    // Readers: YAML through libyaml's event API, CSV scanned as bytes; the bill rules and diagnostics.
    .target(
      name: "SplitBillInput",
      dependencies: ["SplitBillCore", "SplitBillBytes", "SplitBillJSON", "SplitBillText", "CYAML"]),
    // Tip advice: the offline heuristic, AI providers, batching and rate limiting.
    .target(
      name: "SplitBillAdvisor", dependencies: ["SplitBillCore", "SplitBillBytes", "SplitBillJSON", "SplitBillText"]),
    // Writers: JSON, text and the other report formats, streaming into a sink.
    .target(
      name: "SplitBillReports",
      dependencies: ["SplitBillCore", "SplitBillInput", "SplitBillBytes", "SplitBillJSON", "SplitBillText"]),
    // Argument parsing and the commands (the interactive screen's state and drawing with `calc`);
    // the executable only calls `SplitBillCommandLine.main`.
    .target(
      name: "SplitBillCLI",
      dependencies: [
        "SplitBillCore", "SplitBillInput", "SplitBillAdvisor", "SplitBillReports", "SplitBillJSON", "SplitBillText",
      ]),
    .executableTarget(name: "splitbill", dependencies: ["SplitBillCLI", "SplitBillReports"]),

    .testTarget(name: "SplitBillCoreTests", dependencies: ["SplitBillCore", "SplitBillBytes"]),
    .testTarget(
      name: "SplitBillInputTests", dependencies: ["SplitBillInput", "SplitBillBytes", "SplitBillText"],
      resources: [.copy("Fixtures")]),
    .testTarget(name: "SplitBillAdvisorTests", dependencies: ["SplitBillAdvisor", "SplitBillJSON"]),
    .testTarget(
      name: "SplitBillReportsTests",
      dependencies: ["SplitBillReports", "SplitBillBytes", "SplitBillJSON", "SplitBillText"]),
    .testTarget(
      name: "SplitBillCLITests",
      dependencies: ["SplitBillCLI", "SplitBillInput", "SplitBillReports", "SplitBillJSON"],
      exclude: ["Snapshots"]),
  ]
)
