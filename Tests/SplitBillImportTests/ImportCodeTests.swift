import Foundation
import SplitBillModel
import Testing

/// Every code an importer can give is documented, in docs/import.md's table of codes.
@Test func everyImportCodeIsDocumented() throws {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  let document = try String(contentsOf: root.appendingPathComponent("docs/import.md"), encoding: .utf8)
  for code in ImportCode.allCases {
    #expect(document.contains("| `\(code.rawValue)` |"), "docs/import.md lacks \(code.rawValue)")
  }
}
