// libFuzzer target: an MQTT command payload through CommandPayload(bytes:) and the command parser of
// its family (every registered family's driver, `FamilyRegistry`, and GatewayRequest), what the bridge
// runs on every message on `<family>/<id>/cmd/<name>` and `gatt2mqtt/<gateway>/request/<name>`.
// The parsers are internal, so scripts/fuzz compiles this file into the Bridge module with its sources.
//
// Input: byte 0 picks the command (index into `commands` below, modulo its count: the gateway's
// requests, an unknown command, then each registered family's commands in the registry's order, so a
// family added at the registry's end moves no seed; BRIDGE in fuzz/tools/make-corpus lists them in the
// same order for the seeds); the rest is the payload. Checks: never traps; the reply (with the echoed
// transaction) prints as JSON that parses back to itself; what a parser accepts is something the device
// codecs accept: belt writes and navigation sends decode as belt requests, CPR-Band writes as band
// requests (a range comes back as set), an Activ5 sample period as an F0FA write, a gateway address as
// AA:BB:CC:DD:EE:FF. A family without such a check below is held to the first two.
import MQTT
import Peripherals

private enum Target {
    case gateway
    case family(any FamilyDriver)
}

private let drivers: [any FamilyDriver] = FamilyRegistry.drivers.map {
    $0.init(
        configuration: BridgeConfiguration(mqtt: MQTTConfiguration(host: "fuzz"), adapters: ["hci0"], gateway: "fuzz"))
}

private let commands: [(Target, String)] =
    GatewayRequest.names.map { (.gateway, $0) } + [(.family(drivers[0]), "no_such_command")]
    + drivers.flatMap { driver in driver.commandExamples.map { (.family(driver), $0.command) } }

/// The families whose accepted commands are checked against their device codecs, by their typed parsers.
private let codecChecks: [DeviceFamily: @Sendable (String, CommandPayload) throws(CommandError) -> Void] = [
    .belt: { (name: String, payload: CommandPayload) throws(CommandError) in
        checkBelt(try BeltCommandParser.parse(command: name, payload: payload))
    },
    .a5: { (name: String, payload: CommandPayload) throws(CommandError) in
        checkActiv5(try Activ5CommandParser.parse(command: name, payload: payload))
    },
    .cpr: { (name: String, payload: CommandPayload) throws(CommandError) in
        checkCPRBand(try CPRBandCommandParser.parse(command: name, payload: payload))
    },
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let selector = input.first else { return 0 }
    let (target, name) = commands[Int(selector) % commands.count]
    guard let payload = try? CommandPayload(bytes: Array(input.dropFirst())) else { return 0 }

    var failure: CommandError?
    do {
        switch target {
        case .gateway: checkGateway(try GatewayRequest.parse(name: name, payload: payload))
        case .family(let driver):
            _ = try driver.parse(command: name, payload: payload)
            try codecChecks[driver.family]?(name, payload)
        }
    } catch {
        failure = error
    }
    let reply = CommandReply(command: name, error: failure, transaction: payload.transaction).json
    guard JSONValue.parse(Array(reply.text.utf8)) == reply else {
        fatalError("reply \(reply.text) does not parse back")
    }
    return 0
}

private func checkBelt(_ command: BeltBridgeCommand) {
    switch command {
    case .write(let write): checkBeltWrite(write)
    // The switch to app mode that may come first is the `mode` command's write, checked there.
    case .vibration(let write, _): checkBeltWrite(write)
    case .orientation(_, let period):
        if let period { checkBeltWrite(.setOrientationPeriod(milliseconds: period)) }
    case .navigation(let request):
        var navigation = BeltNavigation()
        let now = ContinuousClock.now
        var actions = navigation.connected(mode: .app, now: now)
        do {
            switch request {
            case .start(let signal): actions += try navigation.start(signal, now: now)
            case .update(let signal):
                actions += try navigation.start(BeltNavigation.Signal(), now: now)
                actions += try navigation.update(signal, now: now + .seconds(1))
            case .pause, .resume, .stop:
                actions += try navigation.start(BeltNavigation.Signal(), now: now)
                actions += navigation.pause()
                if request == .resume { actions += try navigation.resume(now: now + .seconds(1)) }
                if request == .stop { actions += navigation.stop() }
            }
        } catch {
            fatalError("parsed navigation \(request) is refused: \(error)")
        }
        actions += navigation.flush(now: now + .seconds(2))
        for case .send(let write) in actions { checkBeltWrite(write) }
    case .notify(let kind):
        var navigation = BeltNavigation()
        _ = navigation.connected(mode: .app, now: .now)
        guard let actions = try? navigation.notify(kind) else { fatalError("parsed notification \(kind) is refused") }
        for case .send(let write) in actions { checkBeltWrite(write) }
    }
}

/// A write the bridge would send must pass its own validation and be understood by the belt codec.
private func checkBeltWrite(_ write: BeltCommand) {
    do {
        try write.validate()
        _ = try BeltRequest.decode(characteristic: write.characteristicUUID, bytes: write.encoded())
    } catch {
        fatalError("\(write) → \(write.encoded()): \(error)")
    }
}

private func checkActiv5(_ command: Activ5BridgeCommand) {
    guard case .samplePeriod(let period) = command else { return }
    let write = Activ5Command.setSamplePeriod(period)
    guard
        (try? Activ5Request.decode(characteristic: write.characteristicUUID, bytes: write.encoded()))
            == .setSamplePeriod(milliseconds: period.milliseconds)
    else { fatalError("\(write) → \(write.encoded())") }
}

private func checkCPRBand(_ command: CPRBandCommand) {
    var band = CPRBandState()
    var responses: [CPRBandResponse] = []
    for write in command.writes {
        guard let requests = try? CPRBandRequest.decode(characteristic: command.characteristicUUID, bytes: write)
        else { fatalError("\(command) → \(write)") }
        responses += band.apply(requests)
    }
    if case .range(let range) = command,
        responses.last != .rangeChanged(minMillimetres: range.minMillimetres, maxMillimetres: range.maxMillimetres)
    {
        fatalError("\(command) → \(responses)")
    }
    if case .name = command {
        guard case .nameChanged? = responses.last else { fatalError("\(command) → \(responses)") }
    }
}

private func checkGateway(_ request: GatewayRequest) {
    let address: String
    switch request {
    case .connect(let text, _), .disconnect(let text), .pair(let text), .forget(let text): address = text
    case .scan(let seconds):
        guard (1...600).contains(seconds) else { fatalError("scan \(seconds)") }
        return
    case .permitJoin(let seconds):
        guard (0...JoinWindow.longest).contains(seconds) else { fatalError("permit_join \(seconds)") }
        return
    case .devices, .restart, .options, .backup: return
    case .restore(let backup):
        // Only what parsing checked whole may ever be staged.
        guard (try? StateBackup.parse(Array(backup.json.text.utf8))) == backup else { fatalError("restore \(backup)") }
        return
    }
    let groups = address.split(separator: ":", omittingEmptySubsequences: false)
    guard groups.count == 6,
        groups.allSatisfy({
            $0.utf8.count == 2 && $0.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) }
        }),
        DeviceID.from(address: address).count == 12
    else { fatalError("address \(address.debugDescription)") }
}
