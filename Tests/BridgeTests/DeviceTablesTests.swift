import BlueZ
import Locks
import Testing

@testable import Bridge

/// The device policy's two tables: the users' choices (`DeviceChoices`) and the sessions (`SessionTable`).
struct DeviceTablesTests {
    /// Spoofed advertisements of a family's name from ever new addresses fill the tables keyed by address only to a
    /// limit; what users asked for (a `connect`, a `disconnect`) and what the session table holds are kept.
    @Test func tablesKeyedByAdvertisingAddressesAreBounded() {
        var choices = DeviceChoices()
        let limit = DeviceChoices.strangerLimit
        for index in 0..<limit {
            let address = "AA:BB:CC:00:\(String(format: "%02X", index / 256)):\(String(format: "%02X", index % 256))"
            choices.recognised[address] = .belt
            choices.firstSeen[address] = .now
        }
        choices.requested["AA:BB:CC:00:00:01"] = .some(.belt)
        choices.released.insert("AA:BB:CC:00:00:02")
        choices.forgetStrangers(held: ["AA:BB:CC:00:00:03"])
        #expect(Set(choices.recognised.keys) == ["AA:BB:CC:00:00:01", "AA:BB:CC:00:00:02", "AA:BB:CC:00:00:03"])
        #expect(Set(choices.firstSeen.keys) == ["AA:BB:CC:00:00:01", "AA:BB:CC:00:00:02", "AA:BB:CC:00:00:03"])
        choices.forgetStrangers(held: [])
        #expect(choices.recognised.count == 3, "below the limit nothing is forgotten")
    }

    /// A device's session is found by `<family>/<id>` and by its address as well as by its object path, until it
    /// is removed; a device placed twice keeps its one session.
    @Test func sessionsAreFoundByDeviceAndAddressAsWellAsByPath() {
        let table = SessionTable()
        let belt = device("00:00:00:00:00:0A", on: "hci0")
        let grip = device("00:00:00:00:00:0B", on: "hci1")
        #expect(
            table.place(belt.address, choose: { _ in belt }) { running(IdleSession(id: "a", family: .belt), $0) }
                == .started)
        #expect(
            table.place(grip.address, choose: { _ in grip }) { running(IdleSession(id: "a", family: .grip), $0) }
                == .started)
        #expect(
            table.place(belt.address, choose: { _ in belt }) { running(IdleSession(id: "b", family: .belt), $0) }
                == .served)
        #expect(table.session(family: .belt, id: "a")?.address == belt.address)
        #expect(table.session(family: .grip, id: "a")?.address == grip.address)
        #expect(table.session(family: .cpr, id: "a") == nil && table.session(family: .belt, id: "b") == nil)
        #expect(table.path(serving: grip.address) == grip.path)
        #expect(table.session(holding: belt.path + "/service0012/char0013")?.family == .belt)
        #expect(table.remove(at: belt.path)?.session.family == .belt)
        #expect(table.session(family: .belt, id: "a") == nil && table.path(serving: belt.address) == nil)
        #expect(table.removeAll().count == 1)
        #expect(table.session(family: .grip, id: "a") == nil && table.paths.isEmpty)
    }

    /// `place` offers the sessions per adapter to the choice; a device no adapter has room for waits (said once),
    /// and stops waiting once it is placed.
    @Test func aDeviceWaitsForASlotUntilItIsPlaced() {
        let table = SessionTable()
        let (first, second) = (device("00:00:00:00:00:01", on: "hci0"), device("00:00:00:00:00:02", on: "hci0"))
        let offered = Mutex<[[String: Int]]>([])
        let full = { (load: [String: Int]) -> BlueZDevice? in
            offered.withLock { $0.append(load) }
            return (load["hci0"] ?? 0) < 1 ? second : nil
        }
        #expect(
            table.place(first.address, choose: { _ in first }) { running(IdleSession(id: "1", family: .cpr), $0) }
                == .started)
        #expect(
            table.place(second.address, choose: full) { running(IdleSession(id: "2", family: .cpr), $0) }
                == .waiting(newly: true))
        #expect(
            table.place(second.address, choose: full) { running(IdleSession(id: "2", family: .cpr), $0) }
                == .waiting(newly: false))
        #expect(table.hasWaiting && table.addresses == [first.address, second.address])
        _ = table.remove(at: first.path)
        #expect(
            table.place(second.address, choose: full) { running(IdleSession(id: "2", family: .cpr), $0) } == .started)
        #expect(!table.hasWaiting)
        #expect(offered.withLock { $0 } == [["hci0": 1], ["hci0": 1], [:]])
    }

    /// A device whose users changed their minds while it was being placed (a `disconnect` request after the sighting
    /// that started the placing) gets no session, and does not wait for a slot.
    @Test func aDeviceNoLongerWantedIsNotPlaced() {
        let table = SessionTable()
        let belt = device("00:00:00:00:00:01", on: "hci0")
        let started = Mutex(0)
        let start = { (device: BlueZDevice) -> RunningSession in
            started.withLock { $0 += 1 }
            return running(IdleSession(id: "a", family: .belt), device)
        }
        #expect(table.place(belt.address, wanted: { false }, choose: { _ in belt }, start: start) == .unwanted)
        #expect(started.withLock { $0 } == 0 && table.addresses.isEmpty && !table.hasWaiting)
        #expect(table.place(belt.address, wanted: { true }, choose: { _ in belt }, start: start) == .started)
        #expect(started.withLock { $0 } == 1 && table.addresses == [belt.address])
    }

    /// A device as BlueZ reports it on `adapter`.
    private func device(_ address: String, on adapter: String) -> BlueZDevice {
        var device = BlueZDevice(address: address, name: nil)
        device.adapterPath = "/org/bluez/\(adapter)"
        device.path = device.adapterPath + "/dev_" + address.replacingOccurrences(of: ":", with: "_")
        return device
    }

    /// A session that does nothing, for the tables.
    private actor IdleSession: DeviceSession {
        nonisolated let id: String
        nonisolated let family: DeviceFamily
        init(id: String, family: DeviceFamily) { (self.id, self.family) = (id, family) }
        func run() async {}
        func linkDidDrop() {}
        func linkReportedDisconnected(_ report: LinkEndReport) {}
        func shutDown() async {}
        func execute(_ command: ParsedCommand) async throws(CommandError) -> [String: JSONValue] { [:] }
    }

    /// Its table entry, serving `device`.
    private func running(_ session: IdleSession, _ device: BlueZDevice) -> RunningSession {
        RunningSession(
            session: session, address: device.address,
            adapter: String(device.adapterPath.split(separator: "/").last ?? ""), task: Task {},
            commands: AsyncStream.makeStream().continuation, connection: ConnectionRecord())
    }
}
