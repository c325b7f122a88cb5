import SplitBill
import SplitBillCore
import SplitBillInput
import SplitBillText

/// The interactive calculator's state and its transitions: the original app's view model.
///
/// Single source of truth, as the app designed it: the state holds the amount text, the selected
/// preset (optional) and the custom tip text separately, and the effective percentage is computed.
/// Choosing a preset clears the custom text; typing a custom value clears the preset. Every figure
/// the screen shows comes from ``result``, computed by the core; the view never computes money.
package struct CalcScreen: Hashable, Sendable {
  /// The rows the cursor moves between.
  package enum Field: Int, CaseIterable, Sendable {
    case amount, preset, customTip, people, names, currency
  }

  /// A key, already decoded from the terminal's bytes.
  package enum Key: Hashable, Sendable {
    case character(Character)
    case backspace, up, down, left, right, tab, backTab, enter, escape, interrupt
    /// Ctrl-A: ask for advice, on any row (`?` is typed into the Names and Currency rows).
    case advise
  }

  /// What a key asked for beyond changing the state.
  package enum Effect: Hashable, Sendable {
    /// Nothing more.
    case none
    /// Leave the screen.
    case quit
    /// Ask the advisor about ``notes``.
    case askAdvisor
  }

  /// The bill amount as typed.
  package var amountText = ""
  /// The chosen preset, if any (10, 15 or 20 %).
  package var preset: Percent? = .preset15
  /// The custom tip as typed.
  package var customTipText = ""
  /// How many people, when no names are given (zero is shown as a problem, not refused).
  package var people = 1
  /// Names as typed: `Ana, Ben=2, Chloé`.
  package var namesText = ""
  /// The currency code as typed.
  package var currencyText = "USD"
  /// Who absorbs leftover units.
  package var leftover = LeftoverPolicy.balanced
  /// The focused row.
  package var focus = Field.amount
  /// Whether the advice prompt is open, and what is typed in it.
  package var notes: String?
  /// The last suggestion, shown until applied or dismissed.
  package var suggestion: TipAdvice?

  /// A fresh screen; 15 % preselected as in the original app.
  package init() {}

  /// The most people the +/− keys reach.
  package static let maximumPeople = 99

  /// The percentage in effect: the preset, else the custom text if it parses.
  package var effectivePercent: Result<Percent, ScreenError> {
    if let preset { return .success(preset) }
    guard !customTipText.isEmpty else { return .failure(.noTip) }
    do {
      switch try TipText.parsing(customTipText) {
      case .percent(let percent): return .success(percent)
      case .advisor: return .failure(.tip("type a percentage here; advice has its own key"))
      }
    } catch {
      return .failure(.tip(error.message(field: "tip")))
    }
  }

  /// What is wrong with the input, shown inline; the typed text is kept as it is.
  package enum ScreenError: Error, Hashable, Sendable {
    case emptyAmount
    case amount(String)
    case noTip
    case tip(String)
    case currency(String)
    case people(String)

    /// The message shown under the field.
    package var message: String {
      switch self {
      case .emptyAmount: return "type the bill amount"
      case .amount(let text), .tip(let text), .currency(let text), .people(let text): return text
      case .noTip: return "choose a preset or type a custom tip"
      }
    }

    /// The field the message belongs to.
    package var field: Field {
      switch self {
      case .emptyAmount, .amount: return .amount
      case .noTip, .tip: return .customTip
      case .currency: return .currency
      case .people: return .names
      }
    }
  }

  /// The bill worked out by the engine (``Calculator``, as `calc` works it out), or the first
  /// problem with the input, under the field it is about.
  package var result: Result<BillSplit, ScreenError> {
    var request = CalcRequest()
    request.currency = currencyText
    request.amount = amountText.isEmpty ? nil : amountText
    request.tip = preset.map { "\($0)" } ?? (customTipText.isEmpty ? nil : customTipText)
    if namesGiven {
      request.people = namesText
      request.skipsEmptyNames = true
    } else {
      request.split = String(people)
    }
    request.leftover = leftover
    do throws(CalcFailure) {
      return .success(try Calculator.split(request))
    } catch {
      switch error.field {
      case .currency: return .failure(.currency(error.reasonText.commandLine))
      case .amount: return .failure(amountText.isEmpty ? .emptyAmount : .amount(error.reasonText.commandLine))
      case .tip, .tipAmount:
        return .failure(customTipText.isEmpty && preset == nil ? .noTip : .tip(error.reasonText.commandLine))
      case .people, .split, .items, nil: return .failure(.people(error.reasonText.commandLine))
      }
    }
  }

  /// Whether names are typed: they then decide the diners and the people count is not used.
  package var namesGiven: Bool { DinerList.namesAnyone(namesText) }

  /// The names typed, with weights, in the diner-list grammar of files and `--people`
  /// (``DinerList``); empty when none. Empty items are passed over while a row is being typed.
  var parsedNames: Result<[Diner], ScreenError> {
    do {
      return .success(try DinerList.diners(in: namesText, skippingEmpty: true))
    } catch {
      return .failure(.people(error.description))
    }
  }

  /// Applies one key; returns what else the screen must do.
  package mutating func handle(_ key: Key) -> Effect {
    if notes != nil { return handleNotes(key) }
    switch key {
    case .interrupt, .escape:
      if suggestion != nil {
        suggestion = nil
        return .none
      }
      return .quit
    // The arrows stop at the first and last rows; Tab and Shift-Tab go round.
    case .up:
      focus = Field(rawValue: max(focus.rawValue - 1, 0)) ?? .amount
    case .backTab:
      focus = Field(rawValue: (focus.rawValue + Field.allCases.count - 1) % Field.allCases.count) ?? .amount
    case .down:
      focus = Field(rawValue: min(focus.rawValue + 1, Field.allCases.count - 1)) ?? .amount
    case .tab, .enter:
      if key == .enter, suggestion != nil {
        applySuggestion()
        return .none
      }
      focus = Field(rawValue: (focus.rawValue + 1) % Field.allCases.count) ?? .amount
    case .left, .right:
      let step = key == .left ? -1 : 1
      switch focus {
      case .preset: choosePreset(step: step)
      case .people: changePeople(by: step)
      default: break
      }
    case .backspace:
      edit { text in if !text.isEmpty { text.removeLast() } }
      if focus == .preset {
        preset = nil
      }
    case .advise:
      notes = ""
      suggestion = nil
    case .character(let character):
      return type(character)
    }
    return .none
  }

  private mutating func type(_ character: Character) -> Effect {
    let inText = focus == .names || focus == .currency
    if !inText {
      switch character {
      case "q": return .quit
      case "?":
        notes = ""
        suggestion = nil
        return .none
      case "y" where suggestion != nil:
        applySuggestion()
        return .none
      case "+":
        changePeople(by: 1)
        return .none
      case "-":
        changePeople(by: -1)
        return .none
      default: break
      }
    }
    switch focus {
    case .amount:
      if character.isASCII && (character.isNumber || character == ".") { amountText.append(character) }
    case .preset:
      // A number typed on the Tip row is a custom tip (12.5 is not the second preset, then the
      // fifth): it goes to the Custom row, and the presets are chosen with ←/→.
      if character.isASCII && (character.isNumber || character == ".") {
        focus = .customTip
        customTipText = String(character)
        preset = nil
      }
    case .customTip:
      if character.isASCII && (character.isNumber || character == ".") {
        customTipText.append(character)
        preset = nil  // typing a custom value clears the preset
      }
    case .people:
      if let digit = character.wholeNumberValue {
        let typed = people * 10 + digit
        people = typed <= Self.maximumPeople ? typed : digit
      }
    case .names:
      if !character.isNewline && character.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) {
        namesText.append(character)
      }
    case .currency:
      if character.isLetter && currencyText.count < 3 { currencyText.append(Character(character.uppercased())) }
    }
    return .none
  }

  private mutating func handleNotes(_ key: Key) -> Effect {
    switch key {
    case .escape, .interrupt: notes = nil
    case .enter:
      return .askAdvisor
    case .backspace: if notes?.isEmpty == false { notes?.removeLast() }
    case .character(let character):
      if character.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) { notes?.append(character) }
    default: break
    }
    return .none
  }

  /// Shows the advisor's answer; the prompt closes.
  package mutating func receive(_ advice: TipAdvice) {
    suggestion = advice
    notes = nil
  }

  /// Uses the suggestion as the custom tip (clearing the preset).
  package mutating func applySuggestion() {
    guard let suggestion else { return }
    customTipText = suggestion.percent.decimalString
    preset = nil
    self.suggestion = nil
  }

  /// Selects a preset, clearing the custom text.
  package mutating func selectPreset(_ percent: Percent) {
    preset = percent
    customTipText = ""
  }

  private mutating func choosePreset(step: Int) {
    let presets = Percent.presets
    guard let current = preset.flatMap({ presets.firstIndex(of: $0) }) else {
      return selectPreset(step > 0 ? presets[0] : presets[presets.count - 1])
    }
    selectPreset(presets[(current + step + presets.count) % presets.count])
  }

  private mutating func changePeople(by step: Int) {
    people = min(max(people + step, 0), Self.maximumPeople)
  }

  private mutating func edit(_ change: (inout String) -> Void) {
    switch focus {
    case .amount: change(&amountText)
    case .customTip:
      change(&customTipText)
    case .names: change(&namesText)
    case .currency: change(&currencyText)
    case .people:
      people /= 10  // zero people is allowed while typing, and shown as a problem
    case .preset: break
    }
  }
}
