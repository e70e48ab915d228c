import Foundation

/// Instructions per message, counted by callgrind in one row run again for that purpose (without
/// commands: the processes run many times slower under it, and only notifications are counted).
struct InstructionCount: Codable, Sendable {
    var devices: Int
    var rate: Int
    var gatt2mqtt: PhaseFigures?
    var peer: PhaseFigures?
    var failures: [String] = []

    /// Parses `DEVICESxRATE` (`1x50`).
    static func row(_ text: String) -> (devices: Int, rate: Int)? {
        let parts = text.lowercased().split(separator: "x").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let devices = parts[0], let rate = parts[1], devices > 0, (1...1000).contains(rate)
        else { return nil }
        return (devices, rate)
    }

    func markdown() -> String {
        func count(_ figures: PhaseFigures?) -> String {
            figures?.instructionsPerMessage.map { String(format: "%.0f", $0) } ?? "–"
        }
        func delivered(_ figures: PhaseFigures?) -> String {
            figures.map { String(format: "%.0f/s", $0.receivedPerSecond) } ?? "–"
        }
        var text = """

            ### Instructions per message (callgrind, user space)

            The row run again with each relay under valgrind's callgrind, counting from the window's start
            to its end: every instruction the process ran in user space (the kernel's work is not counted),
            divided by the force messages it delivered in the window. No commands in this row. For gatt2mqtt
            also the part spent on the notification path itself (an acquired socket read, decoded, published).

            | Devices × rate | gatt2mqtt | of which the notification path | Python relay | gatt2mqtt ÷ Python | delivered/s gatt2mqtt / Python |
            |---|---:|---:|---:|---:|---|

            """
        let ratio = BenchReport.ratio(gatt2mqtt?.instructionsPerMessage, peer?.instructionsPerMessage)
        let path = gatt2mqtt?.notificationPathInstructionsPerMessage.map { String(format: "%.0f", $0) } ?? "–"
        text += "| \(devices) × \(rate)/s | \(count(gatt2mqtt)) | \(path) | \(count(peer)) | "
        text += "\(ratio.map { String(format: "%.3f×", $0) } ?? "–") | \(delivered(gatt2mqtt)) / \(delivered(peer)) |\n"
        for failure in failures { text += "\nFailed: \(failure)\n" }
        return text
    }
}
