import Bridge

/// What a key's value must be beyond its kind, declared with the key: the resolver checks it and `--help` and
/// docs/settings.md say it, from this one place. A rule that needs other keys (an alias's address, the page's
/// credentials) stays in the resolver's code.
enum SettingRule: Sendable, Equatable {
    /// Anything of the key's kind.
    case any
    /// A number from `lower` to `upper`, in `unit` (`seconds`, `connections`); with `lowerExcluded`, more than `lower`.
    case range(Double, Double, unit: String, lowerExcluded: Bool = false)
    /// One of these words, as written (`ignoringCase`: in any case).
    case oneOf([String], ignoringCase: Bool = false)

    /// `true` or `false`.
    static let boolean = oneOf(["true", "false"])

    /// Why `value` breaks the rule, or nil when it keeps it.
    func refusal(_ value: Double) -> String? {
        guard case .range(let lower, let upper, let unit, let lowerExcluded) = self else { return nil }
        let low = lowerExcluded ? value > lower : value >= lower
        guard !(low && value <= upper) else { return nil }
        return "must be \(description(lower: lower, upper: upper, unit: unit, lowerExcluded: lowerExcluded)), "
            + "not \(EffectiveSetting.number(value))"
    }

    /// Why `word` breaks the rule, or nil when it keeps it.
    func refusal(_ word: String) -> String? {
        guard case .oneOf(let words, let ignoringCase) = self else { return nil }
        guard !words.contains(ignoringCase ? word.lowercased() : word) else { return nil }
        return "must be \(Self.alternatives(words)), not '\(word)'"
    }

    /// The rule in words, for `--help` and the reference; nil for `any`.
    var summary: String? {
        switch self {
        case .any: nil
        case .range(let lower, let upper, let unit, let lowerExcluded):
            description(lower: lower, upper: upper, unit: unit, lowerExcluded: lowerExcluded)
        case .oneOf(let words, _): Self.alternatives(words)
        }
    }

    /// The words as a flag's placeholder (`5|3.1.1`); nil unless the rule is a choice.
    var placeholder: String? {
        if case .oneOf(let words, _) = self { words.joined(separator: "|") } else { nil }
    }

    private func description(lower: Double, upper: Double, unit: String, lowerExcluded: Bool) -> String {
        lowerExcluded
            ? "more than \(EffectiveSetting.number(lower)) and at most \(EffectiveSetting.number(upper)) \(unit)"
            : "from \(EffectiveSetting.number(lower)) to \(EffectiveSetting.number(upper)) \(unit)"
    }

    /// `a`, `a or b`, `a, b or c`.
    private static func alternatives(_ words: [String]) -> String {
        guard let last = words.last, words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + last
    }
}
