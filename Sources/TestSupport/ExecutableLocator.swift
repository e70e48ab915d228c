import Foundation

/// Finds programs the way a shell would, plus the sbin directories that a non-root PATH often
/// lacks (Debian installs the mosquitto broker in /usr/sbin).
public enum ExecutableLocator {
    /// Thrown when a program is nowhere to be found.
    public struct NotFound: Error, CustomStringConvertible, Sendable {
        /// The program's name.
        public let name: String
        /// Where it was looked for.
        public let searched: [String]
        /// A sentence for test failures.
        public var description: String { "'\(name)' not found in \(searched.joined(separator: ":"))" }
    }

    /// The full path of executable `name`, searched in PATH, then `/usr/local/sbin`, `/usr/sbin`
    /// and `/sbin`. A name containing a slash is returned as is if it is executable.
    public static func find(_ name: String) throws -> String {
        if name.contains("/") {
            guard FileManager.default.isExecutableFile(atPath: name) else {
                throw NotFound(name: name, searched: [])
            }
            return name
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        var directories = path.split(separator: ":").map(String.init)
        for extra in ["/usr/local/sbin", "/usr/sbin", "/sbin"] where !directories.contains(extra) {
            directories.append(extra)
        }
        for directory in directories {
            let candidate = directory + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw NotFound(name: name, searched: directories)
    }
}
