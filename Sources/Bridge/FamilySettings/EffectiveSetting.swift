/// One setting in effect, at its path in the file's own keys (`broker.url`, `cpr.distance.exponent`), for the
/// configuration the daemon shows: as YAML (`--print-config`) and as JSON (the gateway's retained `info`).
public struct EffectiveSetting: Sendable, Equatable {
    public enum Value: Sendable, Equatable {
        /// Printed as a number (`20`, not `20.0`).
        case number(Double)
        /// A word of a fixed set (`auto`), printed unquoted.
        case word(String)
        /// Free text or a file name, printed quoted.
        case text(String)
        case integers([Int])
        /// `true` or `false`.
        case flag(Bool)
        /// A list of texts, each quoted.
        case texts([String])
        /// Text keys to text values (`aliases`); `{}` when empty, which is also how a family without settings shows.
        case mapping([String: String])
        /// A secret, never shown: JSON says `set` or `unset`; YAML shows `note` as a comment, if any.
        case secret(isSet: Bool, note: String?)
        /// Not set: shown as a comment with why (`# profile: (built in)`); null in JSON.
        case unset(String)
    }

    public let path: String
    public let value: Value

    public init(_ path: String, _ value: Value) {
        self.path = path
        self.value = value
    }
}

extension EffectiveSetting {
    /// `20` rather than `20.0`; other values as Swift prints them.
    public static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// Seconds of a period, for `.number`.
    public static func seconds(_ duration: Duration) -> Double {
        let (whole, attoseconds) = duration.components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
