import Foundation
import TestSupport
import Testing

@testable import DBus

/// Every value type goes out through libdbus and comes back unchanged, through a real bus.
@Suite(.serialized)
struct MarshallingRoundTripTests {
    static let samples: [DBusValue] = [
        .byte(0xFE), .boolean(true), .boolean(false), .int16(-12345), .uint16(65535), .int32(Int32.min),
        .uint32(UInt32.max), .int64(Int64.min), .uint64(UInt64.max), .double(-1.5), .string("naviGuertel ✓"),
        .string(""), .objectPath("/org/bluez/hci0/dev_AA_BB"), .signature("a{sv}"), .bytes([1, 2, 0, 255]), .bytes([]),
        .array(elementSignature: "s", [.string("a"), .string("b")]),
        .array(elementSignature: "s", []),
        .array(elementSignature: "(is)", [.structure([.int32(1), .string("x")])]),
        .properties(["Name": .string("belt"), "RSSI": .int16(-60), "UUIDs": .strings(["fe51"])]),
        .properties([:]),
        .dictionary(
            keySignature: "q", valueSignature: "v", [DBusDictEntry(.uint16(0x004C), .variant(.bytes([1, 2])))]),
        .dictionary(
            keySignature: "o", valueSignature: "a{sa{sv}}",
            [
                DBusDictEntry(
                    .objectPath("/org/bluez/hci0"),
                    .dictionary(
                        keySignature: "s", valueSignature: "a{sv}",
                        [DBusDictEntry(.string("org.bluez.Adapter1"), .properties(["Powered": .boolean(true)]))]))
            ]),
        .structure([.string("s"), .variant(.variant(.uint32(7))), .bytes([9])]),
        .variant(.array(elementSignature: "y", [])),
    ]

    @Test func valuesSurviveARoundTripThroughTheBus() async throws {
        try await PrivateBus.with { bus in
            let server = try DBusConnection(address: bus.address)
            let client = try DBusConnection(address: bus.address)
            try server.export(
                DBusObject(
                    path: "/test", interfaces: [DBusInterface(name: "test.Echo", methods: ["Echo": { $0.arguments }])]))

            for sample in Self.samples {
                let reply = try await client.call(
                    destination: server.uniqueName, path: "/test", interface: "test.Echo", member: "Echo",
                    arguments: [sample])
                // `ay` written as a generic array comes back as bytes: compare through the bytes view then.
                if case .variant(.array("y", _)) = sample {
                    #expect(reply.first?.bytes == [])
                } else {
                    #expect(reply == [sample], "round trip of \(sample.signature)")
                }
            }
            client.close()
            server.close()
        }
    }

    @Test func fileDescriptorsArePassedAsFreshDuplicates() async throws {
        try await PrivateBus.with { bus in
            let server = try DBusConnection(address: bus.address)
            let client = try DBusConnection(address: bus.address)
            try server.export(
                DBusObject(
                    path: "/fd",
                    interfaces: [
                        DBusInterface(
                            name: "test.Fd",
                            methods: [
                                "Take": { call in
                                    // Write through the received duplicate, then close it: the receiver owns it.
                                    guard let fd = call.arguments.first?.fileDescriptor else {
                                        throw DBusError.invalidArgs("no fd")
                                    }
                                    let written = [UInt8]("hello".utf8).withUnsafeBytes {
                                        write(fd, $0.baseAddress, $0.count)
                                    }
                                    close(fd)
                                    return [.int32(Int32(written))]
                                }
                            ])
                    ]))
            var fds: [Int32] = [0, 0]
            // Close-on-exec, as every descriptor of the test process: a child another suite spawns meanwhile
            // must not keep a copy (FileDescriptorPassingTests).
            #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0)
            let reply = try await client.call(
                destination: server.uniqueName, path: "/fd", interface: "test.Fd", member: "Take",
                arguments: [.unixFD(fds[1])])
            #expect(reply == [.int32(5)])
            close(fds[1])
            var buffer = [UInt8](repeating: 0, count: 16)
            let count = read(fds[0], &buffer, 16)
            close(fds[0])
            #expect(Array(buffer.prefix(max(count, 0))) == Array("hello".utf8))
            client.close()
            server.close()
        }
    }

    @Test func malformedValuesAreRefusedBeforeLibdbusSeesThem() async throws {
        try await PrivateBus.with { bus in
            let client = try DBusConnection(address: bus.address)
            let bad: [DBusValue] = [
                .objectPath("not/a/path"), .objectPath("/trailing/"), .signature("a{"),
                .array(elementSignature: "s", [.int32(1)]), .string("nul\u{0}inside"), .structure([]),
                .dictionary(keySignature: "s", valueSignature: "v", [DBusDictEntry(.int32(1), .variant(.byte(1)))]),
            ]
            for value in bad {
                await #expect(throws: DBusMarshalError.self) {
                    _ = try await client.call(
                        destination: "org.freedesktop.DBus", path: "/", interface: "x.Y", member: "Z",
                        arguments: [value])
                }
            }
            await #expect(throws: DBusMarshalError.self) {
                _ = try await client.call(destination: nil, path: "bad path", interface: nil, member: "Z")
            }
            client.close()
        }
    }
}
