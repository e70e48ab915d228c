import Foundation
import PackagePlugin

/// Gives the target it is applied to `Gatt2MQTTVersion.current`, read from the repository's `VERSION` file at
/// build time: the one place the version is written. The package (scripts/package), `gatt2mqtt --version`,
/// the health report, Home Assistant's gateway device and the live page all take it from there.
///
/// A build command rather than a prebuild command: it reruns only when `VERSION` changes, so an ordinary
/// build compiles nothing more. `/bin/sh` writes the file (no tool target to build first); the script refuses
/// a version that is not a plain Debian upstream version, since it becomes a Swift string literal.
@main
struct VersionStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let versionFile = context.package.directoryURL.appending(path: "VERSION")
        let output = context.pluginWorkDirectoryURL.appending(path: "Gatt2MQTTVersion.swift")
        let script = """
            version=$(tr -d '[:space:]' < "$1")
            case "$version" in
                ''|*[!0-9A-Za-z.+~-]*|[!0-9]*) echo "VERSION: '$version' is not a version (digits first; letters, digits, . + ~ -)" >&2; exit 1 ;;
            esac
            printf '%s\\n' \
                '/// The version of gatt2mqtt, from the repository'"'"'s VERSION file (Plugins/VersionStamp).' \
                'public enum Gatt2MQTTVersion {' \
                "    public static let current = \\"$version\\"" \
                '}' > "$2"
            """
        return [
            .buildCommand(
                displayName: "Stamping the version from VERSION", executable: URL(filePath: "/bin/sh"),
                arguments: ["-c", script, "version-stamp", versionFile.path, output.path],
                inputFiles: [versionFile], outputFiles: [output])
        ]
    }
}
