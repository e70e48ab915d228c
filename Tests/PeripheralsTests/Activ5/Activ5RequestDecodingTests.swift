import Testing

@testable import Peripherals

/// Host→device writes as the simulator parses them: every client variant of activ5.md §4.1 and §4.5.
@Suite struct Activ5RequestDecodingTests {
    typealias T = Activ5TestBytes

    static let commands: [(String, Activ5Request)] = [
        ("TVGTIME", .handshakeReply), ("ISOM!", .startIsometric), ("STOP!", .stop), ("TARE!", .tare),
        ("SN1!", .requestSerialNumber(.first)), ("SN2!", .requestSerialNumber(.second)),
        ("ID1!", .requestDeviceID(.first)), ("ID2!", .requestDeviceID(.second)),
        ("D22112019/D", .setDate(digits: "22112019")), ("T123000/T", .setTime(digits: "123000")),
    ]

    /// Web, Android 2019-10 and OLIVER end with 0x19, iOS with 0x13; a missing terminator is tolerated.
    @Test(arguments: [[UInt8]([0x19]), [0x13], []])
    func everyCommandIsAcceptedWithEveryTerminator(terminator: [UInt8]) throws {
        for (text, expected) in Self.commands {
            let bytes = [0x41] + Array(text.utf8) + terminator
            #expect(try Activ5Request.decode(characteristic: T.legacyCommands, bytes: bytes) == expected, "\(text)")
        }
    }

    @Test(arguments: [
        ("41 54 56 47 54 49 4D 45 19", Activ5Request.handshakeReply),
        ("41 54 56 47 54 49 4D 45 13", .handshakeReply),
        ("41 49 53 4F 4D 21 19", .startIsometric),
        ("0A 41 49 53 4F 4D 21 19", .startIsometric),
        ("41 53 54 4F 50 21 13", .stop),
        ("41 54 41 52 45 21 19", .tare),
        ("41 54 56 47 54 49 4D 45 21 47 41 50 49 20", .gapiHandshake),
        ("48 52 21", .heartRate),
        ("41 48 52 21 19", .heartRate),
        ("41 44 32 32 31 31 32 30 31 39 2F 44 19", .setDate(digits: "22112019")),
        ("41 54 31 32 33 30 30 30 2F 54 19", .setTime(digits: "123000")),
    ])
    func vendorWritesAreRecognised(hex: String, expected: Activ5Request) throws {
        #expect(try Activ5Request.decode(characteristic: "5A02", bytes: T.hex(hex)) == expected)
    }

    @Test func everyBridgeCommandRoundTrips() throws {
        let date = try Activ5DateTime(year: 2020, month: 2, day: 29, hour: 23, minute: 59, second: 58)
        let pairs: [(Activ5Command, Activ5Request)] = [
            (.handshakeReply, .handshakeReply), (.startIsometric, .startIsometric), (.stop, .stop),
            (.keepAlive, .stop), (.tare, .tare), (.requestSerialNumber(.second), .requestSerialNumber(.second)),
            (.requestDeviceID(.first), .requestDeviceID(.first)), (.setDate(date), .setDate(digits: "29022020")),
            (.setTime(date), .setTime(digits: "235958")),
            (.setSamplePeriod(try Activ5SamplePeriod(milliseconds: 25)), .setSamplePeriod(milliseconds: 25)),
        ]
        for (command, request) in pairs {
            #expect(
                try Activ5Request.decode(characteristic: command.characteristicUUID, bytes: command.encoded())
                    == request)
        }
    }

    @Test(arguments: [("19 00", Int16(25)), ("64 00", 100), ("FF 7F", 32767)])
    func samplePeriodWrites(hex: String, milliseconds: Int16) throws {
        #expect(
            try Activ5Request.decode(characteristic: T.samplePeriod, bytes: T.hex(hex))
                == .setSamplePeriod(milliseconds: milliseconds))
    }

    static let badWrites: [(String, [UInt8], Activ5WriteRefusalReason)] = [
        (T.legacyCommands, [], .empty),
        (T.legacyCommands, T.hex("0A"), .missingCommandMarker),
        (T.legacyCommands, Array("ISOM!".utf8) + [0x19], .missingCommandMarker),
        (T.legacyCommands, [0x41] + Array("FOO!".utf8) + [0x19], .unknownCommand("FOO!")),
        (T.legacyCommands, [0x41] + Array("isom!".utf8) + [0x19], .unknownCommand("isom!")),
        (T.legacyCommands, [0x41] + Array("STOP!".utf8) + [0x19, 0x19], .unknownCommand("STOP!\u{19}")),
        (T.legacyCommands, [0x41] + Array("D2211201/D".utf8), .unknownCommand("D2211201/D")),
        (T.legacyCommands, [0x41] + Array("T12a000/T".utf8), .unknownCommand("T12a000/T")),
        (T.samplePeriod, [], .empty),
        (T.samplePeriod, [0x19], .invalidLength(actual: 1)),
        (T.samplePeriod, [0x19, 0x00, 0x00], .invalidLength(actual: 3)),
        (T.samplePeriod, [0x00, 0x00], .outOfRange(field: "milliseconds", value: 0)),
        (T.samplePeriod, [0x00, 0x80], .outOfRange(field: "milliseconds", value: -32768)),
        (T.force, [0x01, 0x00], .notWritable),
        (T.legacyMessages, [0x41], .notWritable),
    ]

    @Test(arguments: badWrites)
    func badWritesAreRefused(characteristic: String, bytes: [UInt8], reason: Activ5WriteRefusalReason) {
        #expect(throws: Activ5RequestError(characteristic: characteristic, reason: reason)) {
            try Activ5Request.decode(characteristic: characteristic, bytes: bytes)
        }
    }

    @Test func refusalsMapToBlueZErrors() {
        let uuid = T.legacyCommands
        #expect(
            Activ5RequestError(characteristic: uuid, reason: .empty).bluezErrorName
                == "org.bluez.Error.InvalidValueLength")
        #expect(
            Activ5RequestError(characteristic: uuid, reason: .unknownCommand("X")).bluezErrorName
                == "org.bluez.Error.NotSupported")
        #expect(
            Activ5RequestError(characteristic: uuid, reason: .notWritable).bluezErrorName
                == "org.bluez.Error.NotPermitted")
        #expect(
            Activ5RequestError(characteristic: uuid, reason: .outOfRange(field: "milliseconds", value: 0))
                .bluezErrorName
                == "org.bluez.Error.Failed")
    }

    @Test(arguments: [
        ([UInt8]([0x01, 0x00]), Activ5Request.subscribe(T.force)),
        ([0x02, 0x00], .subscribe(T.force)),
        ([0x00, 0x00], .unsubscribe(T.force)),
    ])
    func clientConfigurationWrites(bytes: [UInt8], expected: Activ5Request) throws {
        #expect(try Activ5Request.decodeClientConfiguration(characteristic: "F0FE", bytes: bytes) == expected)
    }

    @Test func bridgeSubscriptionsRoundTripThroughTheCCCD() throws {
        for command in [Activ5Command.startForce(.new), .stopForce(.new), .startIMU, .stopIMU] {
            let request = try Activ5Request.decodeClientConfiguration(
                characteristic: command.characteristicUUID, bytes: command.encoded())
            switch (command, request) {
            case (.subscribe(let sent), .subscribe(let received)), (.unsubscribe(let sent), .unsubscribe(let received)):
                #expect(sent == received)
            default: Issue.record("\(command) decoded as \(request)")
            }
        }
        #expect(throws: Activ5RequestError(characteristic: T.force, reason: .invalidLength(actual: 1))) {
            try Activ5Request.decodeClientConfiguration(characteristic: T.force, bytes: [0x01])
        }
    }
}
