import Foundation
import TestSupport

/// The machine and the versions of everything in the measured path, for the report.
enum Environment {
    static func machine() -> String {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":").last?
            .trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        let memory = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8))?.split(separator: "\n").first?
            .split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Double($0) }
        let os =
            (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8))?.split(separator: "\n")
            .first { $0.hasPrefix("PRETTY_NAME=") }?.dropFirst(12).trimmingCharacters(
                in: CharacterSet(charactersIn: "\"")) ?? "Linux"
        return
            "\(ProcessInfo.processInfo.activeProcessorCount) × \(model), \(String(format: "%.0f", (memory ?? 0) / 1_048_576)) GiB, \(os)"
    }

    static func versions() -> [String: String] {
        var versions: [String: String] = [:]
        versions["swift"] = firstLine(of: "swift", ["--version"]).flatMap { line in
            line.range(of: #"\d+\.\d+(\.\d+)?"#, options: .regularExpression).map { String(line[$0]) }
        }
        versions["mosquitto"] = firstLine(of: "mosquitto", ["-h"]).map {
            $0.replacingOccurrences(of: "mosquitto version ", with: "")
        }
        versions["dbus-daemon"] = firstLine(of: "dbus-daemon", ["--version"]).map {
            $0.replacingOccurrences(of: "D-Bus Message Bus Daemon ", with: "")
        }
        let python =
            "import importlib.metadata as m, sys; print(sys.version.split()[0], *(m.version(p) for p in ('bluezoo', 'bleak', 'paho-mqtt')))"
        if let line = firstLine(of: ProjectPaths.python, ["-c", python]) {
            let parts = line.split(separator: " ").map(String.init)
            for (name, value) in zip(["python", "bluezoo", "bleak", "paho-mqtt"], parts) { versions[name] = value }
        }
        return versions
    }

    private static func firstLine(of executable: String, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init)
    }
}
