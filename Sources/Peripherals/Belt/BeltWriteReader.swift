/// Parses the bytes of one app→belt write for `BeltRequest.decode`, checking lengths and ranges so that
/// nothing is ever indexed out of range.
struct BeltWriteReader {
    let characteristic: String
    let bytes: [UInt8]

    // MARK: FE05

    func parameterRequest() throws(BeltRequestError) -> BeltRequest {
        try requireLength(2...)
        let opcode = bytes[0]
        let id = bytes[1]
        switch (opcode, id) {
        case (BeltWireCode.basicParameter, BeltWireCode.modeParameter): return .requestMode
        case (BeltWireCode.basicParameter, BeltWireCode.intensityParameter): return .requestDefaultIntensity
        case (BeltWireCode.basicParameter, BeltWireCode.headingOffsetParameter): return .requestHeadingOffset
        case (BeltWireCode.basicParameter, BeltWireCode.nameParameter): return .requestName
        case (BeltWireCode.basicParameter, BeltWireCode.basicWriteFlag | BeltWireCode.modeParameter):
            // pybelt sends 3 bytes, Android and iOS add a trailing 00.
            try requireLength(3...4)
            return .changeMode(try mode(bytes[2]))
        case (BeltWireCode.basicParameter, BeltWireCode.basicWriteFlag | BeltWireCode.intensityParameter):
            try requireLength(5...5)
            let intensity = try checked(Int(bytes.uint16(at: 2) ?? 0), 0...100, field: "intensity")
            return .changeDefaultIntensity(UInt8(intensity), vibrationFeedback: bytes[4] != 0)
        case (BeltWireCode.basicParameter, BeltWireCode.basicWriteFlag | BeltWireCode.headingOffsetParameter):
            try requireLength(4...4)
            return .changeHeadingOffset(try degrees(at: 2))
        case (BeltWireCode.basicParameter, BeltWireCode.basicWriteFlag | BeltWireCode.nameParameter):
            try requireLength(3...(2 + BeltWireCode.maximumNameSuffixLength))
            return .rename(suffix: String(decoding: bytes.dropFirst(2), as: UTF8.self))
        case (BeltWireCode.advancedParameter, 0x01):
            try requireLength(3...3)
            return .requestAdvancedParameter(id: bytes[2])
        case (BeltWireCode.advancedParameterWrite, _):
            return try advancedParameterWrite(id: id)
        case (BeltWireCode.reset, _):
            try requireLength(4...4)
            return .reset(parameters: bytes[1] != 0, bluetooth: bytes[2] != 0, sensors: bytes[3] != 0)
        default:
            throw BeltRequestError(characteristic: characteristic, reason: .unknownOpcode(Array(bytes.prefix(2))))
        }
    }

    private func advancedParameterWrite(id: UInt8) throws(BeltRequestError) -> BeltRequest {
        switch BeltAdvancedParameter(rawValue: id) {
        case .headingOffset:
            try requireLength(5...5)
            return .setHeadingOffset(try degrees(at: 3), persist: bytes[2] != 0)
        case .accuracySignal:
            try requireLength(4...4)
            let state = try checked(Int(bytes[3]), 0...3, field: "accuracySignal")
            return .setAccuracySignal(AccuracySignalState(rawValue: UInt8(state)), persist: bytes[2] != 0)
        case .orientationPeriod:
            try requireLength(5...5)
            let period = try checked(
                Int(bytes.uint16(at: 3) ?? 0), BeltWireCode.minimumOrientationPeriodMs...0xFFFF, field: "milliseconds")
            return .setOrientationPeriod(milliseconds: UInt16(period), persist: bytes[2] != 0)
        case .pairingRequirement:
            try requireLength(4...4)
            return .setPairingRequirement(required: bytes[3] != 0, persist: bytes[2] != 0)
        default:
            return .setOtherAdvancedParameter(id: id, payload: Array(bytes.dropFirst(2)))
        }
    }

    // MARK: FE03

    func vibrationCommand() throws(BeltRequestError) -> BeltRequest {
        try requireLength(1...)
        switch bytes[0] {
        case 0...5: return .vibrate(try channelConfiguration())
        case PulseConfiguration.opcode: return .pulse(try pulseConfiguration())
        case BeltWireCode.stop:
            try requireLength(2...2)
            if bytes[1] == BeltWireCode.allChannels { return .stop(channel: nil) }
            return .stop(channel: UInt8(try checked(Int(bytes[1]), 0...5, field: "channel")))
        case BeltWireCode.systemSignal:
            try requireLength(2...2)
            guard let signal = SystemSignal(rawValue: bytes[1]) else { throw outOfRange("signal", bytes[1]) }
            return .systemSignal(signal)
        default:
            throw BeltRequestError(characteristic: characteristic, reason: .unknownOpcode([bytes[0]]))
        }
    }

    private func channelConfiguration() throws(BeltRequestError) -> ChannelConfiguration {
        try requireLength(18...18)
        guard let pattern = VibrationPattern(rawValue: bytes[1]) else { throw outOfRange("pattern", bytes[1]) }
        let intensityCode = bytes.uint16(at: 2) ?? 0
        let intensity: UInt8? =
            intensityCode == ChannelConfiguration.defaultIntensityCode
            ? nil : UInt8(try checked(Int(intensityCode), 0...100, field: "intensity"))
        let type = try orientationType(bytes[6])
        return ChannelConfiguration(
            unchecked: bytes[0], pattern: pattern, intensity: intensity, orientationType: type,
            orientationValue: try orientationValue(at: 7, type: type), iterations: Self.iterations(bytes[11]),
            periodMs: bytes.uint16(at: 12) ?? 0, startTimeMs: bytes.uint16(at: 14) ?? 0, exclusive: bytes[16] != 0,
            clearOthers: bytes[17] != 0)
    }

    private func pulseConfiguration() throws(BeltRequestError) -> PulseConfiguration {
        try requireLength(17...17)
        let channel = try checked(Int(bytes[1]), 0...5, field: "channel")
        let type = try orientationType(bytes[2])
        let intensity: UInt8? =
            bytes[5] == PulseConfiguration.defaultIntensityCode
            ? nil : UInt8(try checked(Int(bytes[5]), 0...100, field: "intensity"))
        guard let timerOption = PulseTimerOption(rawValue: bytes[14]) else {
            throw outOfRange("timerOption", bytes[14])
        }
        return PulseConfiguration(
            unchecked: UInt8(channel), orientationType: type, orientationValue: try orientationValue(at: 3, type: type),
            intensity: intensity, onDurationMs: bytes.uint16(at: 6) ?? 0, pulseIterations: bytes[8],
            seriesIterations: Self.iterations(bytes[9]), pulsePeriodMs: bytes.uint16(at: 10) ?? 0,
            seriesPeriodMs: bytes.uint16(at: 12) ?? 0, timerOption: timerOption, exclusive: bytes[15] != 0,
            clearOthers: bytes[16] != 0)
    }

    /// 0 (pybelt, Android, iOS navigation) and 0xFF (iOS presets, −1 as a byte) both mean forever.
    private static func iterations(_ byte: UInt8) -> UInt8? {
        byte == 0 || byte == 0xFF ? nil : byte
    }

    private func orientationType(_ byte: UInt8) throws(BeltRequestError) -> OrientationType {
        guard let type = OrientationType(rawValue: byte) else { throw outOfRange("orientationType", byte) }
        return type
    }

    /// Clients normalise before sending, so an index ≥ 16 or an angle ≥ 360 is a broken packet.
    private func orientationValue(at index: Int, type: OrientationType) throws(BeltRequestError) -> UInt16 {
        let value = Int(bytes.uint16(at: index) ?? 0)
        switch type {
        case .binaryMask: return UInt16(value)
        case .motorIndex: return UInt16(try checked(value, 0...15, field: "orientationValue"))
        case .angle, .bearing: return UInt16(try checked(value, 0...359, field: "orientationValue"))
        }
    }

    // MARK: FE07

    func buzzerCommand() throws(BeltRequestError) -> BeltRequest {
        try requireLength(2...)
        guard bytes[0] == BeltWireCode.buzzerTonePattern else {
            throw BeltRequestError(characteristic: characteristic, reason: .unknownOpcode([bytes[0]]))
        }
        let stepCount = try checked(Int(bytes[1]), 0...BuzzerTonePattern.maximumSteps, field: "steps")
        try requireLength((2 + 2 * stepCount)...(2 + 2 * stepCount))
        let steps = (0..<stepCount).map {
            BuzzerTone(frequencyCode: bytes[2 + $0], durationCentiseconds: bytes[2 + stepCount + $0])
        }
        return .buzzer(BuzzerTonePattern(unchecked: steps))
    }

    // MARK: Checks

    private func requireLength(_ range: some RangeExpression<Int>) throws(BeltRequestError) {
        if bytes.isEmpty { throw BeltRequestError(characteristic: characteristic, reason: .empty) }
        guard range.contains(bytes.count) else {
            throw BeltRequestError(characteristic: characteristic, reason: .invalidLength(actual: bytes.count))
        }
    }

    private func mode(_ byte: UInt8) throws(BeltRequestError) -> BeltMode {
        guard let mode = BeltMode(rawValue: byte) else { throw outOfRange("mode", byte) }
        return mode
    }

    private func degrees(at index: Int) throws(BeltRequestError) -> UInt16 {
        UInt16(try checked(Int(bytes.uint16(at: index) ?? 0), 0...359, field: "headingOffset"))
    }

    private func checked(_ value: Int, _ range: ClosedRange<Int>, field: String) throws(BeltRequestError) -> Int {
        guard range.contains(value) else { throw outOfRange(field, value) }
        return value
    }

    private func outOfRange(_ field: String, _ value: some BinaryInteger) -> BeltRequestError {
        BeltRequestError(characteristic: characteristic, reason: .outOfRange(field: field, value: Int(value)))
    }
}
