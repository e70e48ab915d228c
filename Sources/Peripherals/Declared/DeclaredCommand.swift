/// A command a declared device takes (`<family>/<id>/cmd/<name>`): its payload's numbers, each range-checked,
/// encoded with constant bytes into one write; and, for a control point, the indication that answers it.
public struct DeclaredCommand: Sendable, Equatable {
    /// Its name in the command topic: lower-case letters, digits and `_`.
    public var name: String
    /// The characteristic written (full lower-case UUIDs).
    public var characteristic: String
    public var service: String
    /// A write request (answered by the stack) rather than a write command.
    public var withResponse = true
    /// The value, in order.
    public var parts: [Part]
    /// The control point's answer it waits for; nil: the write's own success is the reply.
    public var answer: Answer?

    public init(name: String, characteristic: String, service: String, parts: [Part]) {
        self.name = name
        self.characteristic = characteristic
        self.service = service
        self.parts = parts
    }

    public enum Part: Sendable, Equatable {
        /// Bytes as written (an op code).
        case constant([UInt8])
        /// A number of the payload, written as `type` after `(value - offset) / scale`; refused outside `range` or
        /// where it is not a whole number of steps.
        case field(
            name: String, type: DeclaredFieldType, scale: DecimalScale, offset: Double, range: ClosedRange<Double>)
    }

    /// The control-point pattern (the SIG's Cycling Power, Fitness Machine and SC control points): after the write,
    /// an indication on `characteristic` that starts with `prefix` (response op code, request op code) answers it,
    /// its byte `resultAt` the result code.
    public struct Answer: Sendable, Equatable {
        public var characteristic: String
        public var prefix: [UInt8]
        public var resultAt: Int
        /// The result code that means success.
        public var success: UInt8
        /// Result codes by name, for a refusal's reply.
        public var results: [Int64: String]
        public var timeout: Duration

        public init(
            characteristic: String, prefix: [UInt8], resultAt: Int, success: UInt8, results: [Int64: String],
            timeout: Duration
        ) {
            self.characteristic = characteristic
            self.prefix = prefix
            self.resultAt = resultAt
            self.success = success
            self.results = results
            self.timeout = timeout
        }

        /// Whether `bytes` on `uuid` answer the command.
        public func answers(_ bytes: [UInt8], on uuid: String) -> Bool {
            uuid == characteristic && bytes.count > resultAt && bytes.starts(with: prefix)
        }
    }

    /// The names of the payload's numbers it takes.
    public var fieldNames: [String] {
        parts.compactMap { if case .field(let name, _, _, _, _) = $0 { name } else { nil } }
    }

    /// The value to write for the payload's `numbers`.
    /// - Throws: `DeclaredCommandError` naming the field that is missing, out of its range, or not a whole number of
    ///   its steps.
    public func encode(_ numbers: [String: Double]) throws(DeclaredCommandError) -> [UInt8] {
        var bytes: [UInt8] = []
        for part in parts {
            switch part {
            case .constant(let constant):
                bytes += constant
            case .field(let name, let type, let scale, let offset, let range):
                guard let value = numbers[name] else { throw DeclaredCommandError(field: name, reason: .missing) }
                guard value.isFinite, range.contains(value) else {
                    throw DeclaredCommandError(field: name, reason: .outOfRange(range))
                }
                bytes += try Self.encode(value, as: type, scale: scale, offset: offset, field: name)
            }
        }
        return bytes
    }

    private static func encode(
        _ value: Double, as type: DeclaredFieldType, scale: DecimalScale, offset: Double, field: String
    ) throws(DeclaredCommandError) -> [UInt8] {
        // The inverse of the decoder's scale, by the exact power of ten first: 21.5 at 0.01 is 2150, not 2149.99….
        var power = 1.0
        for _ in 0..<abs(scale.exponent) { power *= 10 }
        let shifted = scale.exponent < 0 ? (value - offset) * power : (value - offset) / power
        let raw = shifted / Double(scale.multiplier)
        switch type {
        case .float32(let bigEndian):
            return ordered(UInt64(Float(raw).bitPattern), bytes: 4, bigEndian: bigEndian)
        case .float64(let bigEndian):
            return ordered(raw.bitPattern, bytes: 8, bigEndian: bigEndian)
        case .unsigned(let count, let bigEndian), .signed(let count, let bigEndian):
            let whole = raw.rounded()
            guard abs(raw - whole) <= 1e-6 * max(1, abs(raw)) else {
                throw DeclaredCommandError(field: field, reason: .notAStep)
            }
            let signed: Bool
            if case .signed = type { signed = true } else { signed = false }
            // Bounds as powers of two, the upper one excluded: exact in a double even for 64 bits.
            let bits = 8 * count
            let low = signed ? -pow2(bits - 1) : 0
            let beyond = signed ? pow2(bits - 1) : pow2(bits)
            guard whole >= low, whole < beyond else { throw DeclaredCommandError(field: field, reason: .doesNotFit) }
            let pattern = whole < 0 ? UInt64(bitPattern: Int64(whole)) : UInt64(whole)
            return ordered(pattern, bytes: count, bigEndian: bigEndian)
        case .sfloat, .medfloat, .utf8:
            // The reader takes integer and IEEE 754 types only for commands.
            throw DeclaredCommandError(field: field, reason: .doesNotFit)
        }
    }

    private static func pow2(_ exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<exponent { result *= 2 }
        return result
    }

    private static func ordered(_ pattern: UInt64, bytes count: Int, bigEndian: Bool) -> [UInt8] {
        let little = (0..<count).map { UInt8(truncatingIfNeeded: pattern >> (8 * UInt64($0))) }
        return bigEndian ? little.reversed() : little
    }
}

/// Why a command's payload cannot be written.
public struct DeclaredCommandError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        case missing
        case outOfRange(ClosedRange<Double>)
        /// Not a whole number of the field's steps (its scale).
        case notAStep
        /// Beyond what its type holds.
        case doesNotFit
    }

    public var field: String
    public var reason: Reason

    public init(field: String, reason: Reason) {
        self.field = field
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .missing: "'\(field)' is missing"
        case .outOfRange(let range):
            "'\(field)' must be from \(Self.shown(range.lowerBound)) to \(Self.shown(range.upperBound))"
        case .notAStep: "'\(field)' must be a whole number of its steps"
        case .doesNotFit: "'\(field)' does not fit its type"
        }
    }

    private static func shown(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
