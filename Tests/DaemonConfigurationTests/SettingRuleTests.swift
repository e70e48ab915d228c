import Testing

@testable import DaemonConfiguration

/// A key's rule is declared once, with the key: the resolver checks it whichever source gives the value, and the
/// help and the reference say it.
struct SettingRuleTests {
    /// The page's keys count only with the page on.
    private static let pageOn = "http: {listen: 127.0.0.1:1}"

    /// The help and the reference, made once: each is every setting's text, and made again for each key (dozens of
    /// cases, run at once) they kept the two threads that every test's tasks share busy for seconds.
    private static let help = SettingFlags.help.split(separator: "\n").map { $0.drop { $0 == " " } }.joined(
        separator: " ")
    private static let reference = SettingsReference.markdown()

    /// A value just outside the rule.
    private static func breaking(_ rule: SettingRule) -> String? {
        switch rule {
        case .any: nil
        case .range(_, let upper, _, _): String(Int(upper) + 1)
        case .oneOf: "nonsense"
        }
    }

    @Test(arguments: ConfigurationKey.allCases.filter { $0.rule != .any })
    func everyRuledKeyIsCheckedByItsRuleFromEverySource(key: ConfigurationKey) throws {
        let bad = try #require(Self.breaking(key.rule))
        let refusal = try #require(
            Int(bad).map { key.rule.refusal(Double($0)) } ?? key.rule.refusal(bad), "\(bad) keeps the rule")
        let fromEnvironment = loadError(Self.pageOn, environment: [key.environmentVariable: bad])
        #expect(fromEnvironment?.description == "\(key.environmentVariable): \(refusal)")
        let flag = try #require(key.flag)
        #expect(loadError(Self.pageOn, flags: flags(flag, bad))?.description == "\(flag): \(refusal)")
        #expect(Self.help.contains("Values: \(key.rule.summary ?? ""). File: \(key.rawValue)."), "--help says the rule")
        #expect(Self.reference.contains(" | \(key.rule.summary ?? "") | "), "the reference says the rule")
    }

    @Test func aRangeAndAChoiceSayWhatTheyTake() {
        let seconds = SettingRule.range(5, 65535, unit: "seconds")
        #expect(seconds.refusal(5) == nil && seconds.refusal(65535) == nil)
        #expect(seconds.refusal(4.5) == "must be from 5 to 65535 seconds, not 4.5")
        let rate = SettingRule.range(0, 10, unit: "per second", lowerExcluded: true)
        #expect(rate.refusal(0) == "must be more than 0 and at most 10 per second, not 0")
        #expect(rate.refusal(0.01) == nil)
        let words = SettingRule.oneOf(["auto", "true", "false"])
        #expect(words.refusal("auto") == nil && words.refusal("AUTO") == "must be auto, true or false, not 'AUTO'")
        #expect(SettingRule.oneOf(["info", "off"], ignoringCase: true).refusal("OFF") == nil)
        #expect(SettingRule.boolean.summary == "true or false" && SettingRule.boolean.placeholder == "true|false")
        #expect(SettingRule.any.summary == nil && SettingRule.any.refusal(1) == nil)
    }
}
