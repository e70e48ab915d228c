import Foundation
import TestSupport
import Testing

/// feelSpace's own Python library (pybelt, over bleak) against the virtual belt through BlueZoo: its
/// handshake (belt.md §2.5) completes, and it reads the mode and the orientation stream.
@Suite(.serialized)
struct PybeltCrossCheckTests {
    static let parameterRequest = "0000fe05-0000-1000-8000-00805f9b34fb"
    static let script = ProjectPaths.root + "/scripts/crosscheck/pybelt_check.py"

    @Test(arguments: BlueZWorld.enabled)
    func pybeltHandshakeModeAndOrientation(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind) { world in try await crossCheck(in: world) }
    }

    private func crossCheck(in world: TestWorld) async throws {
        let belt = try await world.startSimulator(["belt"])
        let ready = try #require(belt.lines.first { $0.text.hasPrefix("READY ") }?.text)
        let address = String(ready.split(separator: " ")[2])

        // The script names hci0 itself (bleak's default adapter may be the belt's own hci1) and has its
        // own hard limit, so this wait only guards against the unexpected.
        let arguments =
            [
                "-u", Self.script, "--adapter", "hci0", "--address", address, "--headings", "2", "--set-mode", "app",
                "--timeout", "50",
                "--connect-attempts", world.isReal ? "4" : "1",
            ] + (world.isReal ? ["--scan-timeout", "25"] : [])
        let (succeeded, output) = try await world.runPython(arguments, name: "pybelt")
        let printed = output.filter { $0.hasPrefix("PYBELT ") }
        #expect(succeeded, "pybelt check failed:\n\(output.joined(separator: "\n"))")
        #expect(!printed.contains { $0.hasPrefix("PYBELT FAIL") }, "\(printed)")

        // pybelt connected on the central's adapter and finished its own handshake.
        let devicePath = "/org/bluez/hci0/dev_" + address.replacingOccurrences(of: ":", with: "_")
        #expect(printed.contains { $0.hasPrefix("PYBELT FOUND \(address) naviGuertel") && $0.hasSuffix(devicePath) })
        #expect(printed.contains("PYBELT CONNECTED"))
        #expect(printed.contains("PYBELT FIRMWARE 52"))
        #expect(printed.contains("PYBELT MODE wait"), "the virtual belt starts in wait mode")

        // Orientation notifications reach pybelt and the heading moves.
        let headings = printed.filter { $0.hasPrefix("PYBELT HEADING ") }.compactMap { Int($0.dropFirst(15)) }
        #expect(headings.count >= 2, "\(printed)")
        #expect(Set(headings).count >= 2, "headings did not change: \(headings)")
        #expect(headings.allSatisfy { (0..<360).contains($0) }, "\(headings)")

        // pybelt's mode change is acknowledged, then it disconnects cleanly.
        #expect(printed.contains("PYBELT MODE-SET app"))
        #expect(printed.contains("PYBELT DISCONNECTED"))
        #expect(printed.last == "PYBELT OK")

        // The belt saw pybelt's exact requests (belt.md §2.5), in order, then its 3-byte mode request, on the
        // connection that completed. On the real stack under qemu, bleak's first connection may end before
        // pybelt's handshake does (the belt saw its first request, then a disconnect); pybelt then tries
        // again, as its users would, and says so.
        let simulator = Self.standardOutput(of: belt)
        let payloads = simulator.filter { $0.hasPrefix("WRITE \(Self.parameterRequest) ") }
            .map { String($0.split(separator: " ")[2]) }
        let retries = printed.filter { $0.hasPrefix("PYBELT RETRY") }
        let completed = payloads.lastIndex(of: "0101").map { Array(payloads[$0...]) } ?? []
        #expect(completed == ["0101", "0102", "0103", "100103", "018103"], "parameter requests: \(payloads)")
        #expect(
            payloads.filter { $0 == "0101" }.count <= retries.count + 1,
            "at most one handshake start per attempt: \(payloads), \(retries)")
        #expect(retries.isEmpty || world.isReal, "BlueZoo connects at the first attempt: \(retries)")
        // The belt prints MODE just after it sends its acknowledgement, so wait for the line rather than read it.
        let modeRequest = try #require(belt.lines.lastIndex { $0.text == "WRITE \(Self.parameterRequest) 018103" })
        let modeChange = try await belt.waitForLine(after: modeRequest + 1) { $0.hasPrefix("MODE ") }
        #expect(modeChange == "MODE app")
        let earlier = belt.lines.prefix(modeRequest).filter { $0.stream == .stdout && $0.text.hasPrefix("MODE ") }
        #expect(earlier.isEmpty, "no mode change before pybelt asked for one: \(earlier)")
    }

    /// The line protocol a process printed (its logs go to standard error).
    private static func standardOutput(of process: ManagedProcess) -> [String] {
        process.lines.filter { $0.stream == .stdout }.map(\.text)
    }
}
