import SplitBillCore

/// The JSON Schema (2020-12) of the YAML bill format, generated from ``BillField/all``.
///
/// Returned as plain values so that a writer can print it; editors with yaml-language-server
/// validate bill files against it as you type.
package enum BillSchema {
  /// A JSON-like value (the input module does not depend on the writers).
  package indirect enum Node: Equatable, Sendable {
    case string(String)
    case integer(Int)
    case bool(Bool)
    case array([Node])
    case object([(String, Node)])

    package static func == (lhs: Node, rhs: Node) -> Bool {
      switch (lhs, rhs) {
      case (.string(let a), .string(let b)): return a == b
      case (.integer(let a), .integer(let b)): return a == b
      case (.bool(let a), .bool(let b)): return a == b
      case (.array(let a), .array(let b)): return a == b
      case (.object(let a), .object(let b)): return a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
      default: return false
      }
    }
  }

  package static let amountPattern = "^\\s*\\+?[0-9]+(\\.[0-9]+)?\\s*$"
  package static let percentPattern = "^\\s*\\+?[0-9]+(\\.[0-9]{1,4})?\\s*%?\\s*$"

  /// The whole schema.
  package static var document: Node {
    let bill = Node.object([
      ("type", .string("object")),
      ("description", .string("One bill.")),
      ("properties", .object(BillField.all.map { ($0.name, property($0)) })),
      (
        "required",
        .array(
          BillField.all.filter { $0.required && $0.name != "diners" && $0.name != "amount" }.map { .string($0.name) })
      ),
      ("additionalProperties", .bool(false)),
      (
        "allOf",
        .array([
          // An amount, items, or both (the amount then checked against them).
          .object([
            (
              "anyOf",
              .array([
                .object([("required", .array([.string("amount")]))]),
                .object([("required", .array([.string("items")]))]),
              ])
            )
          ]),
          .object([("not", .object([("required", .array([.string("shares"), .string("items")]))]))]),
          .object([("not", .object([("required", .array([.string("tip"), .string("tip_amount")]))]))]),
          .object([("not", .object([("required", .array([.string("shares"), .string("diners")]))]))]),
        ])
      ),
    ])
    let payment = Node.object([
      ("type", .string("object")),
      ("description", .string("One payment: money one person handed another to settle up.")),
      (
        "properties",
        .object(
          PaymentField.all.map { field in
            let kind: BillField.Kind =
              switch field.name {
              case "date": .date
              case "amount": .amount
              case "currency": .currency
              default: .text
              }
            return (
              field.name,
              property(
                BillField(
                  name: field.name, kind: kind, required: field.required,
                  inDefaults: false, summary: field.summary))
            )
          })
      ),
      ("required", .array(PaymentField.all.filter(\.required).map { .string($0.name) })),
      ("additionalProperties", .bool(false)),
    ])
    let defaults = Node.object([
      ("type", .string("object")),
      ("description", .string("Defaults for this file's bills, used when a bill gives no value of its own.")),
      (
        "properties",
        .object(
          BillField.all.filter(\.inDefaults).map { ($0.name, property($0)) } + [
            (
              "cash_rounding",
              .object([
                ("description", .string("Each currency's cash increment for settlements, such as {CHF: 0.05}.")),
                ("type", .string("object")),
                ("propertyNames", .object([("pattern", .string("^[A-Za-z]{3}$"))])),
                (
                  "additionalProperties",
                  .object([("type", .array([.string("string"), .string("number")]))])
                ),
              ])
            ),
            (
              "whole_units",
              .object([
                (
                  "description",
                  .string("Currencies this file keeps in whole units (the forint in cash), such as [HUF].")
                ),
                (
                  "oneOf",
                  .array([
                    .object([("type", .string("string")), ("pattern", .string("^[A-Za-z]{3}$"))]),
                    .object([
                      ("type", .string("array")),
                      ("items", .object([("type", .string("string")), ("pattern", .string("^[A-Za-z]{3}$"))])),
                    ]),
                  ])
                ),
              ])
            ),
          ])
      ),
      ("additionalProperties", .bool(false)),
    ])
    let rate = Node.object([
      ("type", .string("object")),
      ("description", .string("On date (or every day), one base is worth rate quotes.")),
      (
        "properties",
        .object([
          ("date", .object([("type", .string("string")), ("pattern", .string("^[0-9]{4}-[0-9]{2}-[0-9]{2}$"))])),
          ("base", .object([("type", .string("string")), ("pattern", .string("^[A-Za-z]{3}$"))])),
          ("quote", .object([("type", .string("string")), ("pattern", .string("^[A-Za-z]{3}$"))])),
          ("rate", .object([("type", .array([.string("string"), .string("number")]))])),
        ])
      ),
      ("required", .array([.string("base"), .string("quote"), .string("rate")])),
      ("additionalProperties", .bool(false)),
    ])
    let file = Node.object([
      ("type", .string("object")),
      (
        "properties",
        .object([
          ("version", .object([("enum", .array([.integer(1), .string("1")]))])),
          (
            "title",
            .object([
              ("type", .string("string")),
              ("description", .string("What the reports are headed with (else the file's name).")),
            ])
          ),
          ("defaults", .object([("$ref", .string("#/$defs/defaults"))])),
          (
            "people",
            .object([
              ("type", .string("array")),
              (
                "items",
                .object([
                  (
                    "anyOf",
                    .array([
                      .object([("type", .string("string"))]),
                      .object([
                        ("type", .string("object")), ("required", .array([.string("name")])),
                        ("additionalProperties", .bool(false)),
                        (
                          "properties",
                          .object([
                            ("name", .object([("type", .string("string"))])),
                            (
                              "iban",
                              .object([
                                ("type", .string("string")),
                                ("description", .string("An IBAN, spaces allowed; its check digits are verified.")),
                              ])
                            ),
                            (
                              "bic",
                              .object([
                                ("type", .string("string")),
                                ("pattern", .string("^ *[A-Za-z]{6}[A-Za-z0-9]{2}([A-Za-z0-9]{3})? *$")),
                              ])
                            ),
                            (
                              "link",
                              .object([
                                ("type", .string("string")), ("pattern", .string("^[Hh][Tt][Tt][Pp][Ss]://[^/]")),
                                ("description", .string("A payment link, such as https://paypal.me/ben.")),
                              ])
                            ),
                            (
                              "holder",
                              .object([
                                ("type", .string("string")), ("maxLength", .integer(70)),
                                ("description", .string("The account's name as the bank has it (default: name).")),
                              ])
                            ),
                          ])
                        ),
                      ]),
                    ])
                  )
                ])
              ),
              (
                "description",
                .string(
                  "The roster: when present, every diner and payer must be in it. A person may carry payment details: {name: Ben, iban: …, bic: …, link: …, holder: …}."
                )
              ),
            ])
          ),
          (
            "rates",
            .object([
              ("type", .string("array")), ("items", rate),
              ("description", .string("Exchange rates for --settle-in, before bills and payments.")),
            ])
          ),
          ("bills", .object([("type", .string("array")), ("items", .object([("$ref", .string("#/$defs/bill"))]))])),
          (
            "payments",
            .object([("type", .string("array")), ("items", .object([("$ref", .string("#/$defs/payment"))]))])
          ),
        ])
      ),
      ("patternProperties", .object([("^x-", .object([("description", .string("Ignored: a place for anchors."))]))])),
      ("additionalProperties", .bool(false)),
    ])
    return .object([
      ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
      ("$id", .string("urn:splitbill:bill-file:1")),
      ("title", .string("splitbill bill file, version 1")),
      (
        "description",
        .string(
          "A mapping with version, defaults, people, bills and payments, or a bare list of bills. Generated by 'splitbill schema'."
        )
      ),
      (
        "oneOf",
        .array([file, .object([("type", .string("array")), ("items", .object([("$ref", .string("#/$defs/bill"))]))])])
      ),
      ("$defs", .object([("bill", bill), ("payment", payment), ("defaults", defaults)])),
    ])
  }

  package static func property(_ field: BillField) -> Node {
    var members: [(String, Node)] = [("description", .string(field.summary))]
    switch field.kind {
    case .text, .person:
      members.append(("type", .array([.string("string"), .string("number")])))
    case .date:
      members += [
        ("type", .string("string")), ("pattern", .string("^[0-9]{4}-[0-9]{2}-[0-9]{2}$")), ("format", .string("date")),
      ]
    case .amount, .tipAmount:
      members.append(
        (
          "anyOf",
          .array([
            .object([("type", .string("number")), ("minimum", .integer(0))]),
            .object([("type", .string("string")), ("pattern", .string(amountPattern))]),
          ])
        ))
    case .currency:
      members += [("type", .string("string")), ("enum", .array(Currency.allCodes.map(Node.string)))]
    case .tip:
      members.append(
        (
          "anyOf",
          .array([
            .object([("type", .string("number")), ("minimum", .integer(0)), ("maximum", .integer(100))]),
            .object([("type", .string("string")), ("pattern", .string(percentPattern))]),
            .object([("const", .string("ai"))]),
          ])
        ))
    case .diners:
      members.append(
        (
          "anyOf",
          .array([
            .object([("type", .string("integer")), ("minimum", .integer(1))]),
            .object([("type", .string("string")), ("pattern", .string("^\\s*[0-9]+\\s*$"))]),
            .object([
              ("type", .string("array")), ("items", .object([("type", .string("string"))])), ("minItems", .integer(1)),
            ]),
            .object([
              ("type", .string("object")), ("minProperties", .integer(1)),
              (
                "additionalProperties",
                .object([
                  (
                    "anyOf",
                    .array([
                      .object([("type", .string("number")), ("exclusiveMinimum", .integer(0))]),
                      .object([("type", .string("string")), ("pattern", .string(amountPattern))]),
                    ])
                  )
                ])
              ),
            ]),
          ])
        ))
    case .payers, .shares:
      let amounts = Node.object([
        ("type", .string("object")), ("minProperties", .integer(1)),
        (
          "additionalProperties",
          .object([
            (
              "anyOf",
              .array([
                .object([("type", .string("number")), ("minimum", .integer(0))]),
                .object([("type", .string("string")), ("pattern", .string(amountPattern))]),
              ])
            )
          ])
        ),
      ])
      if field.kind == .shares, case .object(let shape) = amounts {
        members += shape
      } else {
        members.append(
          ("anyOf", .array([.object([("type", .array([.string("string"), .string("number")]))]), amounts])))
      }
    case .items:
      let item = Node.object([
        ("type", .string("object")),
        (
          "properties",
          .object([
            ("name", .object([("type", .array([.string("string"), .string("number")]))])),
            (
              "price",
              property(
                BillField(name: "price", kind: .amount, required: true, inDefaults: false, summary: "The unit price."))
            ),
            (
              "quantity",
              .object([
                ("description", .string("How many; decimals allowed when price × quantity is exact in minor units.")),
                (
                  "anyOf",
                  .array([
                    .object([("type", .string("number")), ("exclusiveMinimum", .integer(0))]),
                    .object([("type", .string("string")), ("pattern", .string(amountPattern))]),
                  ])
                ),
              ])
            ),
            (
              "for",
              .object([
                (
                  "description",
                  .string("Who shares it: a name, a list of names, or name -> weight; default every diner.")
                ),
                (
                  "anyOf",
                  .array([
                    .object([("type", .string("string"))]),
                    .object([("type", .array([.string("array")])), ("items", .object([("type", .string("string"))]))]),
                    .object([
                      ("type", .string("object")),
                      (
                        "additionalProperties",
                        .object([
                          (
                            "anyOf",
                            .array([
                              .object([("type", .string("number")), ("exclusiveMinimum", .integer(0))]),
                              .object([("type", .string("string")), ("pattern", .string(amountPattern))]),
                              .object([("type", .string("null"))]),
                            ])
                          )
                        ])
                      ),
                    ]),
                  ])
                ),
              ])
            ),
          ])
        ),
        ("required", .array([.string("name"), .string("price")])),
        ("additionalProperties", .bool(false)),
      ])
      members += [("type", .string("array")), ("minItems", .integer(1)), ("items", item)]
    case .adjustment:
      members.append(
        (
          "anyOf",
          .array([
            .object([("type", .string("number")), ("minimum", .integer(0))]),
            .object([("type", .string("string")), ("pattern", .string(amountPattern))]),
            .object([("type", .string("string")), ("pattern", .string("^\\s*\\+?[0-9]+(\\.[0-9]{1,4})?\\s*%\\s*$"))]),
          ])
        ))
    case .names:
      members.append(
        (
          "anyOf",
          .array([
            .object([("type", .string("string"))]),
            .object([("type", .string("array")), ("items", .object([("type", .string("string"))]))]),
          ])
        ))
    case .flag:
      members.append(
        (
          "anyOf",
          .array([
            .object([("type", .string("boolean"))]),
            .object([("enum", .array(["true", "false", "yes", "no"].map(Node.string)))]),
          ])
        ))
    case .rate:
      members += [
        ("type", .string("string")),
        ("pattern", .string("^\\s*([0-9]+(\\.[0-9]+)?\\s+[A-Za-z]{3}|[A-Za-z]{3}\\s+[0-9]+(\\.[0-9]+)?)\\s*$")),
      ]
    case .recurrence:
      let units = Node.array(Recurrence.Unit.allCases.map { .string($0.rawValue) })
      let date = Node.object([("type", .string("string")), ("pattern", .string("^[0-9]{4}-[0-9]{2}-[0-9]{2}$"))])
      let skipItem = Node.object([("type", .string("string")), ("pattern", .string("^[0-9]{4}(-[0-9]{2}){0,2}$"))])
      members.append(
        (
          "anyOf",
          .array([
            .object([("type", .string("string")), ("enum", units)]),
            .object([
              ("type", .string("object")),
              (
                "properties",
                .object([
                  ("every", .object([("type", .string("string")), ("enum", units)])),
                  ("until", date),
                  ("count", .object([("type", .string("integer")), ("minimum", .integer(1))])),
                  (
                    "skip",
                    .object([
                      ("anyOf", .array([skipItem, .object([("type", .string("array")), ("items", skipItem)])]))
                    ])
                  ),
                ])
              ),
              ("required", .array([.string("every")])),
              ("additionalProperties", .bool(false)),
            ]),
          ])
        ))
    case .tipBase:
      members += [("type", .string("string")), ("enum", .array(TipBase.allCases.map { .string($0.rawValue) }))]
    case .leftover:
      members += [("type", .string("string")), ("enum", .array(LeftoverPolicy.allCases.map { .string($0.rawValue) }))]
    case .rounding:
      members += [("type", .string("string")), ("enum", .array(RoundingMode.allCases.map { .string($0.rawValue) }))]
    }
    return .object(members)
  }
}
