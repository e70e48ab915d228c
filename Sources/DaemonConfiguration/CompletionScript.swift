/// Shell completion for `gatt2mqtt` in bash, zsh and fish (`gatt2mqtt --print-completion SHELL`; the package installs
/// all three): every setting's flags, made from the keys as `--help` makes them (`SettingFlags`), so a new key
/// completes without another line, and the executable's own flags, which it hands in. A flag's values complete where
/// the key names them (`--devices-auto-connect adopted`), file names where it takes a path.
public enum CompletionScript {
    public enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    /// A flag as the shells are told of it.
    public struct Flag: Sendable, Equatable {
        public enum Value: Sendable, Equatable {
            /// A switch: no value.
            case none
            /// A value of the user's own: nothing to offer.
            case any
            /// One of these words.
            case words([String])
            /// A file name.
            case file
        }

        public let name: String
        public let help: String
        public let value: Value
        /// Whether it may be given more than once (a list's flag adds to the list).
        public let repeats: Bool

        public init(_ name: String, _ help: String, value: Value, repeats: Bool = false) {
            self.name = name
            self.help = help
            self.value = value
            self.repeats = repeats
        }
    }

    /// Every setting's flags, in the keys' order: each value flag (its own name and an earlier one) and each switch.
    public static var settingFlags: [Flag] {
        ConfigurationKey.allCases.flatMap { key -> [Flag] in
            let value: Flag.Value =
                if key.kind == .path {
                    .file
                } else if case .oneOf(let words, _) = key.rule {
                    .words(words)
                } else {
                    .any
                }
            let repeats = key.kind == .list || key.kind == .map || key.kind == .integers
            return key.flags.map { Flag($0, key.help, value: value, repeats: repeats) }
                + key.switches.map { Flag($0.flag, $0.help, value: .none) }
        }
    }

    /// The script for `shell`, with `own` (the executable's flags that are not settings) before the settings'.
    public static func script(for shell: Shell, own: [Flag]) -> String {
        let flags = own + settingFlags
        switch shell {
        case .bash: return bash(flags)
        case .zsh: return zsh(flags)
        case .fish: return fish(flags)
        }
    }

    /// The first clause of a flag's help, without the characters the shells' quoting would need escaped.
    static func short(_ help: String) -> String {
        let clause = help.prefix { ![".", ";", ":", "("].contains($0) }
        let cleaned = String(clause.map { "'\"[]`$\\".contains($0) ? " " : $0 })
        var text = Substring(cleaned)
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text.count <= 70 ? String(text) : String(text.prefix(69)) + "…"
    }

    private static func bash(_ flags: [Flag]) -> String {
        func names(_ chosen: [Flag]) -> String { chosen.map(\.name).joined(separator: "|") }
        var cases: [String] = []
        let files = flags.filter { $0.value == .file }
        if !files.isEmpty { cases.append("        \(names(files))) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;") }
        for flag in flags {
            if case .words(let words) = flag.value {
                cases.append(
                    "        \(flag.name)) COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")); return ;;"
                )
            }
        }
        let others = flags.filter { $0.value == .any }
        if !others.isEmpty { cases.append("        \(names(others))) return ;;") }
        return """
            # bash completion for gatt2mqtt: made by `gatt2mqtt --print-completion bash` from its settings' declaration.
            _gatt2mqtt() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
                case "$prev" in
            \(cases.joined(separator: "\n"))
                esac
                COMPREPLY=($(compgen -W "\(flags.map(\.name).joined(separator: " "))" -- "$cur"))
            }
            complete -F _gatt2mqtt gatt2mqtt

            """
    }

    private static func zsh(_ flags: [Flag]) -> String {
        let specs = flags.map { flag -> String in
            let value: String =
                switch flag.value {
                case .none: ""
                case .any: ":value: "
                case .words(let words): ":value:(\(words.joined(separator: " ")))"
                case .file: ":file:_files"
                }
            return "    '\(flag.repeats ? "*" : "")\(flag.name)[\(short(flag.help))]\(value)'"
        }
        return """
            #compdef gatt2mqtt
            # zsh completion for gatt2mqtt: made by `gatt2mqtt --print-completion zsh` from its settings' declaration.
            _arguments \\
            \(specs.joined(separator: " \\\n"))

            """
    }

    private static func fish(_ flags: [Flag]) -> String {
        let lines = flags.map { flag -> String in
            let long = String(flag.name.dropFirst(2))
            let value: String =
                switch flag.value {
                case .none: ""
                case .any: " -x"
                case .words(let words): " -x -a '\(words.joined(separator: " "))'"
                case .file: " -r -F"
                }
            return "complete -c gatt2mqtt -l \(long)\(value) -d '\(short(flag.help))'"
        }
        return """
            # fish completion for gatt2mqtt: made by `gatt2mqtt --print-completion fish` from its settings' declaration.
            complete -c gatt2mqtt -f
            \(lines.joined(separator: "\n"))

            """
    }
}
