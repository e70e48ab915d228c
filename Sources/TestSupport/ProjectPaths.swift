import Foundation

/// Where the project's own files are, for tests that start its executables and scripts.
public enum ProjectPaths {
    /// The repository's root folder.
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // Sources/TestSupport/ProjectPaths.swift
        return url.path
    }()

    /// The folder holding the built `gatt2mqtt` and `gatt2mqtt-sim`: `GATT2MQTT_BIN_DIR`, else the test
    /// runner's own build folder (SwiftPM puts executables beside the test bundle), else `.build/debug`.
    public static let binaries: String = {
        if let folder = ProcessInfo.processInfo.environment["GATT2MQTT_BIN_DIR"] { return folder }
        let runnerFolder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        if FileManager.default.isExecutableFile(atPath: runnerFolder + "/gatt2mqtt") { return runnerFolder }
        return root + "/.build/debug"
    }()

    /// A built executable. `GATT2MQTT_UNDER_TEST` names another `gatt2mqtt` for the integration tests to run:
    /// scripts/test's arm64 world sets it to the arm64 build under qemu-user.
    public static func binary(_ name: String) -> String {
        if name == "gatt2mqtt", let other = ProcessInfo.processInfo.environment["GATT2MQTT_UNDER_TEST"], !other.isEmpty
        {
            return other
        }
        return binaries + "/" + name
    }

    /// The version in the repository's VERSION file, which everything that names a version takes.
    public static func version() throws -> String {
        try String(contentsOfFile: root + "/VERSION", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The virtual environment made by scripts/setup.
    public static let python = root + "/.venv/bin/python"
}
