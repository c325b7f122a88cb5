/// Money handed from one person to another to settle up: it changes no bill and no one's
/// consumption, only balances. The one who pays (`from`) is owed more afterwards, the one who
/// receives (`to`) less, by `amount`.
public struct Payment: Hashable, Sendable {
  /// Who paid.
  public var from: String
  /// Who received.
  public var to: String
  /// How much; always positive.
  public var amount: Money

  /// Creates a payment.
  public init(from: String, to: String, amount: Money) {
    self.from = from
    self.to = to
    self.amount = amount
  }

  /// The currency paid in.
  public var currency: Currency { amount.currency }
}
