/// The bridge's handshake as data, following the current iOS library (activ5.md §4.5 A), the most complete flow.
public enum Activ5Handshake: Sendable {
    /// How long to wait for each answer. Not stated by any client; 2 s leaves room for a `TC5k` sent only
    /// after the CCCD write settles.
    public static let answerTimeoutSeconds = 2.0

    /// The ordered steps for a device with the given characteristics (UUIDs in any spelling), as iOS decides:
    /// read whichever of 2A25, F0F7, F0F8 exist; if the legacy channel exists, subscribe to 5A01, wait for
    /// `TC5k`, write `TVGTIME`, then ask `ID1!`/`ID2!` only when F0F7 and F0F8 are both missing and
    /// `SN1!`/`SN2!` only when 2A25 is missing.
    ///
    /// Reads go first so that `TC5k`, which arrives once 5A01 is subscribed, is the next thing awaited.
    /// Waits that time out are not fatal by themselves: Web shows the device takes `TVGTIME` without the
    /// host having seen `TC5k`, and the legacy replies are unconfirmed. `Activ5HandshakeProgress.isComplete`
    /// decides success.
    public static func steps(availableCharacteristics: [String]) -> [Activ5HandshakeStep] {
        let available = Set(availableCharacteristics.map(BluetoothUUID.normalized))
        let c = Activ5GATT.Characteristic.self
        var steps: [Activ5HandshakeStep] = [c.serialNumber, c.deviceIDPart1, c.deviceIDPart2]
            .filter(available.contains).map { .read($0) }
        guard available.contains(c.legacyMessages), available.contains(c.legacyCommands) else { return steps }
        steps += [.subscribe(c.legacyMessages), .awaitInitialMessage, .write(.handshakeReply)]
        if !available.contains(c.deviceIDPart1) && !available.contains(c.deviceIDPart2) {
            steps += [.request(.requestDeviceID(.first)), .request(.requestDeviceID(.second))]
        }
        if !available.contains(c.serialNumber) {
            steps += [.request(.requestSerialNumber(.first)), .request(.requestSerialNumber(.second))]
        }
        return steps
    }

    /// The steps for the layout `Activ5GATT.services(for:)` describes for a protocol.
    public static func steps(for wireProtocol: Activ5Protocol) -> [Activ5HandshakeStep] {
        steps(availableCharacteristics: Activ5GATT.services(for: wireProtocol).flatMap(\.characteristics).map(\.uuid))
    }
}
