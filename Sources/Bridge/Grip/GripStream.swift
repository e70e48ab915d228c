import Peripherals

extension GripDriver {
    /// Events on the placeholder profile's event characteristic, published by their SDK names on
    /// `grip/<id>/event` (QoS 1: an event is not to be lost). `gatt2mqtt-sim grip --events-per-second` cycles
    /// through the events: byte n is the n-th `GripEvent`.
    static let stream = FamilyStream(
        family: family, name: "grip events", characteristic: GripProfile.placeholder.eventCharacteristicUUID,
        leaf: "event", qos: 1, period: GripEvent.allCases.count,
        simulatorArguments: { rate, _ in ["grip", "--events-per-second", "\(rate)", "--no-pairing"] },
        sequenceOfValue: { $0.first.map(Int.init) },
        sequenceOfPayload: { GripEvent(rawValue: $0).flatMap { GripEvent.allCases.firstIndex(of: $0) }.map { $0 + 1 } },
        payloadOfSequence: { sequence in
            let cycle = GripEvent.allCases
            return (1...cycle.count).contains(sequence)
                ? cycle[cycle.index(cycle.startIndex, offsetBy: sequence - 1)].rawValue : nil
        })
}
