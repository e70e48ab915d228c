// libFuzzer target: a fleet claim payload through ClaimCodec.decode(bytes:device:), what every gateway of a
// fleet runs on each message on `gatt2mqtt/<gateway>/claim/<family>/<id>` from the other gateways, and
// ClaimCodec.encode, what it publishes itself. The codec is public API, so scripts/fuzz links this file
// against the Fleet objects.
//
// Input: the payload, as it comes from the broker (no selector: the device key is part of the topic,
// not of the payload, so the file passes a fixed one). Checks: never traps; the same payload on an
// empty device key is refused as such; a refusal of malformed JSON names an offset inside the payload;
// the String API (decode(_:device:)) agrees with the byte one on valid UTF-8; a decoded claim keeps the
// device key, has a valid gateway name, counters within ClaimCodec.maximumCounter, and RSSI and free
// slots within their ranges; it encodes to ASCII within ClaimCodec.maximumPayloadBytes that decodes to
// an equal claim and encodes again to the same text.
import Fleet

private let device = "belt/001122334451"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let payload = Array(UnsafeBufferPointer(start: data, count: size))
    let result = Result { () throws(ClaimDecodingError) in try ClaimCodec.decode(bytes: payload, device: device) }

    // The device key is checked before anything is read, so no payload gets past an empty one.
    do {
        let claim = try ClaimCodec.decode(bytes: payload, device: "")
        fatalError("\(claim) decoded for an empty device key")
    } catch {
        guard error == .emptyDeviceKey else { fatalError("an empty device key is refused as \(error)") }
    }

    // A gateway that reads the payload as text must come to the same answer as one that reads bytes.
    if let text = String(validating: payload, as: UTF8.self) {
        let again = Result { () throws(ClaimDecodingError) in try ClaimCodec.decode(text, device: device) }
        guard again == result else { fatalError("as text \(again), as bytes \(result)") }
    }

    let claim: Claim
    switch result {
    case .failure(let error):
        if case .malformed(let offset, _) = error, !(0...payload.count).contains(offset) {
            fatalError("\(error) for a payload of \(payload.count) bytes")
        }
        // The log line an operator reads: it must print.
        guard !error.description.isEmpty else { fatalError("\(error) has no description") }
        return 0
    case .success(let decoded):
        claim = decoded
    }

    check(claim)
    let encoded = ClaimCodec.encode(claim)
    guard encoded.utf8.allSatisfy({ $0 < 0x80 }), encoded.utf8.count <= ClaimCodec.maximumPayloadBytes else {
        fatalError("\(claim) encodes as \(encoded.debugDescription)")
    }
    let decoded: Claim
    do {
        decoded = try ClaimCodec.decode(encoded, device: device)
    } catch {
        fatalError("\(claim) encodes as \(encoded), which is refused: \(error)")
    }
    guard decoded == claim else { fatalError("\(claim) → \(encoded) → \(decoded)") }
    let reencoded = ClaimCodec.encode(decoded)
    guard reencoded == encoded else { fatalError("\(claim) encodes as \(encoded), then as \(reencoded)") }
    return 0
}

/// What the arbiter relies on in every claim it is given.
private func check(_ claim: Claim) {
    guard claim.device == device, ClaimCodec.isValidGatewayName(claim.gateway),
        [claim.incarnation, claim.sequence, claim.term].allSatisfy({ $0 <= ClaimCodec.maximumCounter }),
        claim.rssi.map({ ClaimCodec.rssiRange.contains($0) }) ?? true,
        ClaimCodec.freeSlotsRange.contains(claim.freeSlots)
    else { fatalError("decoded out of bounds: \(claim)") }
}
