/// One step of a buzzer tone pattern, in the wire units of belt.md §3.6.
public struct BuzzerTone: Sendable, Equatable {
    /// Frequency in kHz as unsigned Q3.5 (Hz / 1000 × 32); 0 is silence.
    public let frequencyCode: UInt8
    /// Duration in centiseconds.
    public let durationCentiseconds: UInt8

    /// Converts from Hz and milliseconds, truncating like Android's `BuzzerTonePattern`.
    /// - Throws: `FieldError` for frequencyHz above 7999 Hz or durationMs outside 0–2550.
    public init(frequencyHz: Double, durationMs: Int) throws(FieldError) {
        let code = frequencyHz <= 0 ? 0 : Int(frequencyHz / 1000 * 32)
        guard code <= 255 else {
            throw FieldError(field: "frequencyHz", message: "\(frequencyHz) Hz is above the buzzer's range")
        }
        try FieldError.check(durationMs, in: 0...2550, field: "durationMs")
        self.init(frequencyCode: UInt8(code), durationCentiseconds: UInt8(durationMs / 10))
    }

    /// Stores the wire values as they are.
    public init(frequencyCode: UInt8, durationCentiseconds: UInt8) {
        self.frequencyCode = frequencyCode
        self.durationCentiseconds = durationCentiseconds
    }
}

/// A buzzer tone pattern, the FE07 command `01 N f1…fN d1…dN` (firmware ≥ 45).
public struct BuzzerTonePattern: Sendable, Equatable {
    /// Most steps one command carries.
    public static let maximumSteps = 9

    /// The steps in playing order.
    public let steps: [BuzzerTone]

    /// Validates the step count.
    /// - Throws: `FieldError` on field `steps` unless there are 1–9 steps.
    public init(steps: [BuzzerTone]) throws(FieldError) {
        try FieldError.check(steps.count, in: 1...Self.maximumSteps, field: "steps")
        self.steps = steps
    }

    /// Stores steps as they are; for values decoded from the wire (Android accepts an empty pattern).
    init(unchecked steps: [BuzzerTone]) {
        self.steps = steps
    }

    /// The FE07 bytes: all frequencies first, then all durations.
    public func encoded() -> [UInt8] {
        [0x01, UInt8(steps.count)] + steps.map(\.frequencyCode) + steps.map(\.durationCentiseconds)
    }
}
