import Foundation
import PackagePlugin

/// Gives the target it is applied to `ShippedDeclarations.files`: every device declaration in the repository's
/// `declarations/` folder (`*.yaml`), as text compiled into the daemon. The standard profiles are part of the
/// program then, whatever installed it (the package, the container, the add-on, a binary copied by hand), and the
/// files in the repository are the ones the tests read: there is no second copy to drift.
///
/// A build command, rerun when a declaration changes (and planned again when one is added or removed). `/bin/sh`
/// writes the file, each declaration as a raw string literal; it refuses a file that holds `"""#` or `\#`, which
/// would end that literal or interpolate in it.
@main
struct ShippedDeclarations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "declarations")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".yaml") }.sorted()
        let inputs = names.map { folder.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "ShippedDeclarations.swift")
        let script = ##"""
            out="$1"; shift
            {
                printf '%s\n' '/// The device declarations shipped with gatt2mqtt: the repository'"'"'s declarations/ folder, by file name' \
                    '/// (Plugins/ShippedDeclarations).' 'public enum ShippedDeclarations {' \
                    '    public static let files: [(name: String, text: String)] = ['
                for file in "$@"; do
                    if grep -q -e '"""#' -e '\\#' "$file"; then
                        echo "$file: holds \"\"\"# or \\#, which a raw string literal cannot" >&2; exit 1
                    fi
                    printf '        (name: "%s", text: #"""\n' "$(basename "$file")"
                    cat "$file"
                    # The literal's last line break is not its text's: one more keeps the file's own.
                    if [ -n "$(tail -c 1 "$file")" ]; then printf '\n'; fi
                    printf '\n"""#),\n'
                done
                printf '%s\n' '    ]' '}'
            } > "$out.partial" && mv "$out.partial" "$out"
            """##
        return [
            .buildCommand(
                displayName: "Embedding the shipped device declarations", executable: URL(filePath: "/bin/sh"),
                arguments: ["-c", script, "shipped-declarations", output.path] + inputs.map(\.path),
                inputFiles: inputs, outputFiles: [output])
        ]
    }
}
