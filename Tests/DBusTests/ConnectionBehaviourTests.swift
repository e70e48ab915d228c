import Foundation
import Locks
import TestSupport
import Testing

@testable import DBus

@Suite(.serialized)
struct ConnectionBehaviourTests {
    @Test func remoteErrorsKeepTheirDBusName() async throws {
        try await PrivateBus.with { bus in
            let server = try DBusConnection(address: bus.address)
            let client = try DBusConnection(address: bus.address)
            try server.export(
                DBusObject(
                    path: "/dev",
                    interfaces: [
                        DBusInterface(
                            name: "org.bluez.GattCharacteristic1",
                            methods: [
                                "ReadValue": { _ in
                                    throw DBusError(name: "org.bluez.Error.Failed", message: "Not connected")
                                }
                            ])
                    ]))
            do {
                _ = try await client.call(
                    destination: server.uniqueName, path: "/dev", interface: "org.bluez.GattCharacteristic1",
                    member: "ReadValue")
                Issue.record("expected an error")
            } catch let error as DBusError {
                #expect(error == DBusError(name: "org.bluez.Error.Failed", message: "Not connected"))
            }
            await #expect(throws: DBusError(name: DBusError.unknownObjectName, message: "no object at /nothing")) {
                _ = try await client.call(
                    destination: server.uniqueName, path: "/nothing", interface: "x.Y", member: "Z")
            }
            await #expect(throws: DBusError.self) {
                _ = try await client.call(destination: "org.bluez", path: "/", interface: "x.Y", member: "Z")
            }
            client.close()
            server.close()
        }
    }

    @Test func aCallWithoutAnswerTimesOut() async throws {
        try await PrivateBus.with { bus in
            let server = try DBusConnection(address: bus.address)
            let client = try DBusConnection(address: bus.address)
            try exportSlowWait(on: server, answeringAfter: .seconds(5))
            let started = ContinuousClock.now
            do {
                _ = try await callSlowWait(client, on: server, timeout: .milliseconds(200))
                Issue.record("expected a timeout")
            } catch let error as DBusError {
                #expect(error.isTimeout)
            }
            #expect(ContinuousClock.now - started < .seconds(3))
            client.close()
            server.close()
        }
    }

    @Test func signalsReachTheSubscribersWhoseRuleMatches() async throws {
        try await PrivateBus.with { bus in
            let emitter = try DBusConnection(address: bus.address)
            let listener = try DBusConnection(address: bus.address)
            let changes = listener.signals(
                matching: DBusMatchRule(
                    interface: DBusStandardInterface.properties, member: "PropertiesChanged",
                    pathNamespace: "/org/bluez"))
            // A round trip after subscribing makes sure the bus has the match rule before anything is emitted.
            _ = try await listener.nameHasOwner("org.bluez")

            try emitter.emitPropertiesChanged(
                path: "/elsewhere", interface: "org.bluez.GattCharacteristic1", changed: ["Value": .bytes([0])])
            try emitter.emitPropertiesChanged(
                path: "/org/bluez/hci0/dev_1/char0001", interface: "org.bluez.GattCharacteristic1",
                changed: ["Value": .bytes([1, 2])])
            var iterator = changes.makeAsyncIterator()
            let signal = try #require(await iterator.next())
            #expect(signal.path == "/org/bluez/hci0/dev_1/char0001")
            #expect(signal.sender == emitter.uniqueName)
            #expect(signal.arguments.first?.string == "org.bluez.GattCharacteristic1")
            #expect(signal.arguments[1].stringKeyed?["Value"]?.bytes == [1, 2])
            #expect(signal.arguments[2].strings == [])
            emitter.close()
            listener.close()
        }
    }

    /// The hot path of a central: a change of only a characteristic's Value reaches the tap, read from
    /// the message itself; anything else (another property changed too, another interface, a tap that
    /// declines) reaches the subscribers decoded, as before.
    @Test func aByteValueChangeReachesTheTapAndEverythingElseTheSubscribers() async throws {
        try await PrivateBus.with { bus in
            let emitter = try DBusConnection(address: bus.address)
            let listener = try DBusConnection(address: bus.address)
            let tapped = Mutex<[(String, [UInt8])]>([])
            listener.tapByteProperty(interface: "org.bluez.GattCharacteristic1", property: "Value") { path, bytes in
                guard path != "/declined" else { return false }
                tapped.withLock { $0.append((path, bytes)) }
                return true
            }
            let changes = listener.signals(
                matching: DBusMatchRule(interface: DBusStandardInterface.properties, member: "PropertiesChanged"))
            _ = try await listener.nameHasOwner("org.bluez")

            let characteristic = "org.bluez.GattCharacteristic1"
            try emitter.emitPropertiesChanged(
                path: "/a", interface: characteristic, changed: ["Value": .bytes([1, 2, 3])])
            try emitter.emitPropertiesChanged(
                path: "/b", interface: characteristic, changed: ["Value": .bytes([4]), "Notifying": .boolean(true)])
            try emitter.emitPropertiesChanged(
                path: "/c", interface: "org.bluez.Device1", changed: ["Value": .bytes([5])])
            try emitter.emitPropertiesChanged(
                path: "/declined", interface: characteristic, changed: ["Value": .bytes([6])])
            try emitter.emitPropertiesChanged(path: "/d", interface: characteristic, changed: ["Value": .bytes([])])
            // Signals arrive in order: once this one is decoded, the tap has had every earlier one.
            try emitter.emitPropertiesChanged(
                path: "/end", interface: characteristic, changed: [:], invalidated: ["Value"])
            var iterator = changes.makeAsyncIterator()
            var decoded: [String] = []
            for _ in 0..<4 { decoded.append(try #require(await iterator.next()).path) }
            #expect(decoded == ["/b", "/c", "/declined", "/end"])
            #expect(tapped.withLock { $0.map(\.0) } == ["/a", "/d"])
            #expect(tapped.withLock { $0.map(\.1) } == [[1, 2, 3], []])
            emitter.close()
            listener.close()
        }
    }

    @Test func exportedPropertiesAndObjectManagerAnswerStandardCalls() async throws {
        try await PrivateBus.with { bus in
            let server = try DBusConnection(address: bus.address)
            let client = try DBusConnection(address: bus.address)
            let alias = Mutex("belt")
            try server.exportObjectManager(at: "/app")
            let added = client.signals(matching: DBusMatchRule(sender: server.uniqueName, member: "InterfacesAdded"))
            _ = try await client.nameHasOwner("x.y")
            try server.export(
                DBusObject(
                    path: "/app/service0",
                    interfaces: [
                        DBusInterface(
                            name: "org.bluez.GattService1",
                            properties: {
                                [
                                    "UUID": .string("0000fe51-0000-1000-8000-00805f9b34fb"), "Primary": .boolean(true),
                                    "Alias": .string(alias.withLock { $0 }),
                                ]
                            },
                            setProperty: { name, value in
                                guard name == "Alias", let text = value.string else {
                                    throw DBusError.invalidArgs("read-only \(name)")
                                }
                                alias.withLock { $0 = text }
                            })
                    ]))

            var iterator = added.makeAsyncIterator()
            let announcement = try #require(await iterator.next())
            #expect(announcement.path == "/app")
            #expect(announcement.arguments.first == .objectPath("/app/service0"))

            let primary = try await client.call(
                destination: server.uniqueName, path: "/app/service0", interface: DBusStandardInterface.properties,
                member: "Get", arguments: [.string("org.bluez.GattService1"), .string("Primary")])
            #expect(primary == [.variant(.boolean(true))])
            _ = try await client.call(
                destination: server.uniqueName, path: "/app/service0", interface: DBusStandardInterface.properties,
                member: "Set",
                arguments: [.string("org.bluez.GattService1"), .string("Alias"), .variant(.string("renamed"))])
            let all = try await client.call(
                destination: server.uniqueName, path: "/app/service0", interface: DBusStandardInterface.properties,
                member: "GetAll", arguments: [.string("org.bluez.GattService1")])
            #expect(all.first?.stringKeyed?["Alias"]?.string == "renamed")
            await #expect(throws: DBusError.self) {
                _ = try await client.call(
                    destination: server.uniqueName, path: "/app/service0", interface: DBusStandardInterface.properties,
                    member: "Set",
                    arguments: [.string("org.bluez.GattService1"), .string("UUID"), .variant(.string("x"))])
            }

            let managed = try await client.call(
                destination: server.uniqueName, path: "/app", interface: DBusStandardInterface.objectManager,
                member: "GetManagedObjects")
            let objects = try #require(managed.first?.stringKeyed)
            #expect(Array(objects.keys) == ["/app/service0"])
            #expect(
                objects["/app/service0"]?.stringKeyed?["org.bluez.GattService1"]?.stringKeyed?["UUID"]?.string
                    == "0000fe51-0000-1000-8000-00805f9b34fb")

            let xml = try await client.call(
                destination: server.uniqueName, path: "/app", interface: DBusStandardInterface.introspectable,
                member: "Introspect")
            #expect(xml.first?.string?.contains("<node name=\"service0\"/>") == true)
            client.close()
            server.close()
        }
    }

    @Test func losingTheBusEndsStreamsAndFailsCallsWithoutKillingTheProcess() async throws {
        let bus = try await PrivateBus.start()
        let connection = try DBusConnection(address: bus.address)
        let stream = connection.signals(matching: DBusMatchRule(member: "Anything"))
        _ = try await connection.nameHasOwner("x.y")
        await bus.stop()
        await connection.disconnected()
        #expect(await !connection.isConnected)
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == nil)
        await #expect(throws: DBusError.self) { _ = try await connection.nameHasOwner("x.y") }
        connection.close()
    }

    /// A wait for the loss is a service's job for the whole run: a shutdown cancels it, before or after it began.
    @Test func aWaitForTheLossEndsWhenItsTaskIsCancelled() async throws {
        try await PrivateBus.with { bus in
            let connection = try DBusConnection(address: bus.address)
            let waiting = Task { await connection.disconnected() }
            _ = try await connection.nameHasOwner("x.y")
            waiting.cancel()
            await waiting.value
            let cancelledFirst = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                await connection.disconnected()
            }
            await cancelledFirst.value
            #expect(await connection.isConnected, "cancelled waits, not a lost bus")
            connection.close()
        }
    }

    /// The bridge's shutdown once hung here: dbus-daemon died while a Disconnect call was in flight,
    /// and neither the call nor the connection ever learned of it.
    @Test func aCallInFlightWhenTheBusDiesFailsAtOnce() async throws {
        let bus = try await PrivateBus.start()
        let server = try DBusConnection(address: bus.address)
        let client = try DBusConnection(address: bus.address)
        try exportSlowWait(on: server, answeringAfter: .seconds(30))
        let started = ContinuousClock.now
        let call = Task {
            try await callSlowWait(client, on: server, timeout: .seconds(60))
        }
        // The call is on its way once the server's name has been asked about after it (one connection, in order).
        _ = try await client.nameHasOwner("x.y")
        await bus.stop()
        await #expect(throws: DBusError.self) { _ = try await call.value }
        await client.disconnected()
        #expect(ContinuousClock.now - started < .seconds(10))
        client.close()
        server.close()
    }

    @Test func closingTheConnectionFailsTheCallsInFlight() async throws {
        try await PrivateBus.with { bus in
            let server = try DBusConnection(address: bus.address)
            let client = try DBusConnection(address: bus.address)
            try exportSlowWait(on: server, answeringAfter: .seconds(30))
            let call = Task {
                try await callSlowWait(client, on: server, timeout: .seconds(60))
            }
            _ = try await client.nameHasOwner("x.y")
            let started = ContinuousClock.now
            client.close()
            await #expect(throws: DBusError.self) { _ = try await call.value }
            #expect(ContinuousClock.now - started < .seconds(5))
            server.close()
        }
    }

    /// Exports `/slow` `test.Slow.Wait` on `server`, which answers after `delay`.
    private func exportSlowWait(on server: DBusConnection, answeringAfter delay: Duration) throws {
        try server.export(
            DBusObject(
                path: "/slow",
                interfaces: [
                    DBusInterface(
                        name: "test.Slow",
                        methods: [
                            "Wait": { _ in
                                try await Task.sleep(for: delay)
                                return []
                            }
                        ])
                ]))
    }

    private func callSlowWait(_ client: DBusConnection, on server: DBusConnection, timeout: Duration) async throws
        -> [DBusValue]
    {
        try await client.call(
            destination: server.uniqueName, path: "/slow", interface: "test.Slow", member: "Wait", timeout: timeout)
    }
}
