// swift-tools-version: 6.2
import PackageDescription

/// Strict memory safety (SE-0458) in every module: each use of a pointer, `memcmp`, a C call or
/// raw memory is marked `unsafe` and checked by the compiler, and each type that holds unsafe
/// storage says why it is safe to use (`@safe` and its doc comment) or is `@unsafe` itself.
let checked: [SwiftSetting] = [.strictMemorySafety()]
/// The same, and views that borrow a reader's bytes as `Span`s (`~Escapable` types whose lifetime
/// the compiler checks: `@_lifetime`, experimental in Swift 6.3 as in swift-collections).
let checkedWithLifetimes: [SwiftSetting] = checked + [.enableExperimentalFeature("Lifetimes")]

let package = Package(
  name: "splitbill",
  products: [
    .executable(name: "splitbill", targets: ["splitbill"]),
    .library(name: "SplitBillCore", targets: ["SplitBillCore"]),
    // The engine, for programs that use splitbill rather than run it (docs/library.md).
    .library(name: "SplitBill", targets: ["SplitBill"]),
  ],
  targets: [
    // Exact money, percentages, tips, splits, leftover allocation, the bill's terms and
    // settlement. No I/O, no Double, no parsing of files, no unsafe code, no dependency.
    .target(name: "SplitBillCore", swiftSettings: checked),
    // Byte plumbing, not API: a cursor that writes into room made beforehand (Core's amounts,
    // dates and codes among what it writes), a table of short byte strings, word-at-a-time scans,
    // batches moved between threads, a seeded bit mixer. The package's pointer code lives here,
    // behind safe APIs; the rest is the C shims' (Files' system calls, YAML's libyaml, Scan's
    // Tesseract, the fuzzing harness's entry point), marked where it is.
    // Every unsafe use there is marked `unsafe` and checked by the compiler (SE-0458).
    .target(name: "SplitBillBytes", dependencies: ["SplitBillCore"], swiftSettings: checked),
    // JSON values: parsing (AI replies, the advice cache) and writing (reports, `calc --json`).
    .target(name: "SplitBillJSON", dependencies: ["SplitBillBytes"], swiftSettings: checked),
    // Text helpers every writer and reader shares: trimming, control characters, did-you-mean.
    .target(name: "SplitBillText", swiftSettings: checked),
    // libyaml from Debian's libyaml-dev, through pkg-config yaml-0.1.
    .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
    // The few types and constants of Tesseract (text recognition), Leptonica (images) and libheif
    // (HEIC) that `scan` uses, declared in the project: the package builds without their
    // development packages. The libraries are opened when `scan` first runs (SplitBillScan's
    // ScanLibraries), not linked: other commands do not load them, and without them `scan` says
    // what to install.
    .target(name: "CTesseract"),
    // libqrencode's QR code type, declared in the project likewise: the HTML report's EPC payment
    // codes open the library when first drawn (SplitBillReports' QRCodeLibrary).
    .target(name: "CQRencode"),
    // Receipts read from photos offline: images normalised, text recognised, lines rebuilt,
    // figures found and checked by their arithmetic.
    .target(
      name: "SplitBillScan", dependencies: ["SplitBillCore", "SplitBillJSON", "SplitBillText", "CTesseract"],
      swiftSettings: checked),
    // The bill model every module below the readers shares: `Bill`, `PaymentRecord`, `Diagnostic`
    // and `Problem`, `SourceLocation`, the bill format's keys (`BillField`) and its JSON Schema,
    // names, and `Locked` (the project's one lock type).
    .target(name: "SplitBillModel", dependencies: ["SplitBillCore", "SplitBillText"], swiftSettings: checked),
    // Files as the readers and writers use them: bytes read in chunks, standard input kept for a
    // second reading, source lines for excerpts, unlinked temporary files, the byte-order mark.
    .target(name: "SplitBillFiles", dependencies: ["SplitBillCore", "SplitBillModel"], swiftSettings: checked),
    // YAML through libyaml's event API: events with positions, a bill captured flat, the node tree
    // (anchors and aliases), and where `add` appends to a file.
    .target(
      name: "SplitBillYAML", dependencies: ["SplitBillCore", "SplitBillModel", "SplitBillFiles", "CYAML"],
      swiftSettings: checked),
    // A whole CSV file with located cells (exports, rates files).
    .target(name: "SplitBillCSV", dependencies: ["SplitBillBytes", "SplitBillFiles"], swiftSettings: checked),
    // Exchange-rate files: `rates:` sections, `--rates` files in YAML or CSV, the ECB's as published.
    .target(
      name: "SplitBillRates",
      dependencies: [
        "SplitBillCore", "SplitBillText", "SplitBillModel", "SplitBillFiles", "SplitBillYAML", "SplitBillCSV",
      ],
      swiftSettings: checked),
    // The bill readers and their rules: YAML and CSV bills seen through one field view, every rule
    // once (`BillRules`, `PaymentRules`), the stream of a run's inputs in order, repeated ids.
    .target(
      name: "SplitBillInput",
      dependencies: [
        "SplitBillCore", "SplitBillBytes", "SplitBillJSON", "SplitBillText", "SplitBillModel", "SplitBillFiles",
        "SplitBillYAML", "SplitBillCSV", "SplitBillRates",
      ],
      swiftSettings: checkedWithLifetimes),
    // Tip advice: the offline heuristic, AI providers, batching and rate limiting.
    .target(
      name: "SplitBillAdvisor",
      dependencies: ["SplitBillCore", "SplitBillBytes", "SplitBillJSON", "SplitBillText", "SplitBillFiles"],
      swiftSettings: checked),
    // Importers: other apps' exports (Splitwise CSV, Spliit JSON) as splitbill bills and payments.
    .target(
      name: "SplitBillImport",
      dependencies: [
        "SplitBillCore", "SplitBillInput", "SplitBillModel", "SplitBillFiles", "SplitBillCSV", "SplitBillJSON",
        "SplitBillText",
      ],
      swiftSettings: checked),
    // Writers: JSON, text and the other report formats, streaming into a sink.
    .target(
      name: "SplitBillReports",
      dependencies: [
        "SplitBillCore", "SplitBillModel", "SplitBillFiles", "SplitBillBytes", "SplitBillJSON", "SplitBillText",
        "CQRencode",
      ],
      swiftSettings: checked),
    // The engine: the commands as functions with typed options and results, no argument parsing
    // and no printing (docs/library.md). The CLI calls it.
    .target(
      name: "SplitBill",
      dependencies: [
        "SplitBillCore", "SplitBillModel", "SplitBillFiles", "SplitBillYAML", "SplitBillCSV", "SplitBillRates",
        "SplitBillInput", "SplitBillImport", "SplitBillAdvisor", "SplitBillReports", "SplitBillJSON", "SplitBillText",
        "SplitBillScan",
      ],
      swiftSettings: checked),
    // Argument parsing and the commands (the interactive screen's state and drawing with `calc`);
    // the executable only calls `SplitBillCommandLine.main`.
    .target(
      name: "SplitBillCLI",
      dependencies: [
        "SplitBillCore", "SplitBillModel", "SplitBillFiles", "SplitBillInput", "SplitBillAdvisor", "SplitBillReports",
        "SplitBillJSON", "SplitBillText", "SplitBillImport", "SplitBill",
      ],
      swiftSettings: checked),
    .executableTarget(name: "splitbill", dependencies: ["SplitBillCLI", "SplitBillReports"]),
    // The readers' fuzz target: libFuzzer's entry point when built by scripts/fuzz.sh
    // (-sanitize=fuzzer,address -DFUZZING), otherwise a tool that replays saved inputs.
    .executableTarget(
      name: "SplitBillFuzz",
      dependencies: [
        "SplitBillCore", "SplitBillModel", "SplitBillRates", "SplitBillInput", "SplitBillReports", "SplitBill",
      ],
      swiftSettings: checked),

    .testTarget(name: "SplitBillCoreTests", dependencies: ["SplitBillCore", "SplitBillBytes", "SplitBillModel"]),
    .testTarget(
      name: "SplitBillInputTests",
      dependencies: [
        "SplitBillInput", "SplitBillModel", "SplitBillFiles", "SplitBillRates", "SplitBillBytes", "SplitBillText",
        "SplitBillCSV", "SplitBillYAML",
      ],
      resources: [.copy("Fixtures")]),
    // Fixtures: receipt text the fuzzer starts from (scripts/fuzz.sh).
    .testTarget(name: "SplitBillScanTests", dependencies: ["SplitBillScan", "SplitBillCore"], exclude: ["Fixtures"]),
    .testTarget(name: "SplitBillAdvisorTests", dependencies: ["SplitBillAdvisor", "SplitBillJSON", "SplitBillModel"]),
    .testTarget(
      name: "SplitBillReportsTests",
      dependencies: [
        "SplitBillReports", "SplitBillModel", "SplitBillFiles", "SplitBillBytes", "SplitBillJSON", "SplitBillText",
      ]),
    .testTarget(
      name: "SplitBillImportTests",
      dependencies: ["SplitBillImport", "SplitBillModel", "SplitBillCore", "SplitBillBytes"]),
    // A program using the engine library as docs/library.md shows it: only `import SplitBill`.
    .testTarget(name: "SplitBillLibraryTests", dependencies: ["SplitBill"]),
    .testTarget(
      name: "SplitBillCLITests",
      dependencies: [
        "SplitBillCLI", "SplitBill", "SplitBillInput", "SplitBillModel", "SplitBillReports", "SplitBillJSON",
        "SplitBillFiles", "SplitBillCore", "SplitBillText",
      ],
      exclude: ["Snapshots"]),
  ]
)
