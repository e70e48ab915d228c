import Bridge

/// Every setting in one table, made from the keys' declarations: what `--print-settings-reference` prints and
/// docs/settings.md holds (a test keeps the two equal). A default is what the resolver makes of nothing, so the
/// table cannot promise one the daemon does not have.
public enum SettingsReference {
    public static func markdown() -> String {
        var lines = [
            "# Settings",
            "",
            "Every setting of gatt2mqtt: its key in the YAML file, its flag and its environment variable, its default,",
            "the values it takes and what it does. Sources override one another in this order: the defaults, the file,",
            "`request/options`, the environment, the flags. A list's variable or flag takes its items separated by",
            "commas, a mapping's `key=value` pairs. Made by `gatt2mqtt --print-settings-reference`; do not edit by hand.",
            "",
            "| key | flag | environment | default | values | meaning |",
            "|---|---|---|---|---|---|",
        ]
        for key in ConfigurationKey.allCases {
            let flags = key.flags.map { "`\($0)`" } + key.switches.map { "`\($0.flag)` (\($0.value))" }
            let variables = key.environmentVariables.map { "`\($0)`" }
            let cells = [
                "`\(key.rawValue)`", flags.isEmpty ? "none" : flags.joined(separator: ", "),
                variables.joined(separator: ", "), escaped(defaultText(key)), escaped(key.rule.summary ?? ""),
                escaped(key.help),
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The key's default in words: its note where it depends on the machine, else the value in effect when
    /// nothing is given (with the page on, for the page's own keys).
    static func defaultText(_ key: ConfigurationKey) -> String {
        if let note = key.defaultNote { return note }
        guard let value = defaults[key.rawValue] else { return "none" }
        return text(value)
    }

    /// The settings in effect when nothing is given, by path.
    private static let defaults: [String: EffectiveSetting.Value] = {
        // The page's keys show only with the page on; its address is not a default (`defaultNote`).
        let nothing = "http:\n  listen: 127.0.0.1:1\n"
        guard let loaded = try? ConfigurationLoader.load(yaml: nothing, hostName: "host") else {
            preconditionFailure("the defaults do not load")
        }
        return Dictionary(loaded.settingsInEffect.map { ($0.path, $0.value) }, uniquingKeysWith: { first, _ in first })
    }()

    private static func text(_ value: EffectiveSetting.Value) -> String {
        switch value {
        case .number(let number): EffectiveSetting.number(number)
        case .word(let word): word
        case .text(let text): text.isEmpty ? "empty" : text
        case .integers(let values): values.map(String.init).joined(separator: ",")
        case .flag(let flag): String(flag)
        case .texts(let texts): texts.isEmpty ? "none" : texts.joined(separator: ",")
        case .mapping(let pairs):
            pairs.isEmpty
                ? "none" : pairs.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        case .secret(let isSet, _): isSet ? "set" : "none"
        case .unset(let why): why
        }
    }

    /// A table cell: `|` would end it early.
    private static func escaped(_ text: String) -> String {
        String(text.flatMap { $0 == "|" ? ["\\", "|"] : [$0] })
    }
}
