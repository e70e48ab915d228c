import Foundation

/// One family's stream with gatt2mqtt under callgrind (`--family-instructions`): user-space instructions per
/// value, the whole process's and the notification path's, and from them what a small board's core would
/// spend ("on paper": this machine has no arm64 core to measure on).
struct FamilyInstructionRow: Codable, Sendable {
    var family: BenchFamily
    var devices: Int
    var rate: Int
    var gatt2mqtt: PhaseFigures?
    var failures: [String] = []

    /// The small board the estimate is for, and what it assumes; each figure is stated beside the table.
    enum SmallBoard {
        /// A Raspberry Pi 3's Cortex-A53 (the Zero 2 W's too), at 1.4 GHz.
        static let hertz = 1.4e9
        /// Instructions a cycle of an in-order dual-issue A53 on branchy code: an assumption, not a measure.
        static let instructionsPerCycle = 0.6
        /// AArch64 code runs about this many more instructions than x86-64 for the same Swift: an assumption.
        static let instructionSetFactor = 1.2
        /// The load the estimate is for: ten devices, each at 50 values a second, the most any family sends
        /// (a belt's orientation at its 20 ms minimum period; an Activ5 at most 40 Hz).
        static let devices = 10
        static let rate = 50
    }

    /// The share of one small-board core that `SmallBoard.devices` at `SmallBoard.rate` need: the
    /// notification path alone, and the whole process (its fixed cost a second, from this row, plus the
    /// notification path for each value).
    var smallBoardShare: (path: Double, process: Double)? {
        guard let total = gatt2mqtt?.instructionsPerMessage,
            let path = gatt2mqtt?.notificationPathInstructionsPerMessage
        else { return nil }
        let values = Double(SmallBoard.devices * SmallBoard.rate)
        let fixedPerSecond = max(total - path, 0) * Double(devices * rate)
        let cycles = { (instructions: Double) in
            instructions * SmallBoard.instructionSetFactor / SmallBoard.instructionsPerCycle
        }
        return (cycles(path * values) / SmallBoard.hertz, cycles(fixedPerSecond + path * values) / SmallBoard.hertz)
    }

    static func markdown(_ rows: [FamilyInstructionRow]) -> String {
        guard !rows.isEmpty else { return "" }
        func count(_ value: Double?) -> String { value.map { String(format: "%.0f", $0) } ?? "–" }
        func percent(_ value: Double?) -> String { value.map { String(format: "%.1f %%", $0 * 100) } ?? "–" }
        var text = """

            ### Every family's notification path, counted, and a small board on paper

            Each family's stream again, gatt2mqtt alone under callgrind (user space only): instructions per value
            delivered, the whole process's and the notification path's (an acquired socket read, decoded,
            published). From them, the share of one Cortex-A53 core at \(String(format: "%.1f", SmallBoard.hertz / 1e9)) GHz (a Raspberry Pi 3 or Zero 2 W) that
            \(SmallBoard.devices) devices at \(SmallBoard.rate) values a second would need, assuming \(SmallBoard.instructionsPerCycle) instructions a cycle and \(SmallBoard.instructionSetFactor)× the
            instructions on AArch64. The whole process's share adds its fixed cost a second from this row (timers,
            discovery, the fleet's turn) to the notification path of every value; the kernel's work (sockets,
            D-Bus, the broker's TCP) is in neither. Estimates on paper, not measurements on a board.

            | Stream | Devices × rate | instructions / value: process / notification path | A53 share, \(SmallBoard.devices) × \(SmallBoard.rate)/s: notification path / whole process | delivered/s |
            |---|---|---:|---:|---|

            """
        for row in rows {
            let share = row.smallBoardShare
            text +=
                "| \(row.family.streamName) | \(row.devices) × \(row.rate)/s | \(count(row.gatt2mqtt?.instructionsPerMessage)) / "
            text +=
                "\(count(row.gatt2mqtt?.notificationPathInstructionsPerMessage)) | \(percent(share?.path)) / \(percent(share?.process)) | "
            text += "\(row.gatt2mqtt.map { String(format: "%.0f/s", $0.receivedPerSecond) } ?? "–") |\n"
        }
        for row in rows { for failure in row.failures { text += "\nFailed (\(row.family.streamName)): \(failure)\n" } }
        return text
    }
}
