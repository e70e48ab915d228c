import Peripherals

/// A declared characteristic that publishes one JSON object a value (its `topic`), compiled once when its stream is
/// subscribed: the same bytes as `DeclaredDecoder.decode` then `DeclaredLeaves.leaves`, or the same error, with less
/// work a value. Decoding field by field looked up each condition's field by name, copied every field's declaration
/// (a dozen references retained and released) and made a `DecodedField` of each value before the JSON was written
/// from them: twice the written heart rate family's instructions a value, where issue #59 asks 1.2×. Here a value
/// walks plain steps: each condition points at a slot of raw values, each key's JSON is written once, and an integer
/// (scaled by a power of ten or not) is written as digits with no value made of it. Anything rarer (texts, floats,
/// lists, bit fields, names of values, rounding, an offset) goes through the decoder's own `value(of:in:)` and
/// `DeclaredLeaves.appendJSON`, so each field has one meaning; `DeclaredJSONPlanTests` holds both paths to the same
/// bytes.
struct DeclaredJSONPlan: Sendable {
    private let characteristic: DeclaredCharacteristic
    private let topic: String
    private let steps: [Step]
    /// Every step's conditions, one after another (`Step.conditions`).
    private let conditions: [Condition]
    /// Every `,"name":` of a field or a bit field, one after another (`Step.key`, `bitKeys`).
    private let keys: [UInt8]
    /// Each field's bit fields' keys in `keys`, for the fields that have them.
    private let bitKeys: [[Range<Int>]]
    /// How many raw values the conditions may read: a slot per integer field's name, and one never written (0).
    private let slotCount: Int
    /// The longest JSON text a value can make, where every field is an integer written as digits without bit fields
    /// (`direct`); nil otherwise.
    private let directCapacity: Int?

    /// One field, with nothing to retain: when it is there, where its raw value goes, how it is written.
    private struct Step {
        let field: Int
        let conditions: Range<Int>
        /// Where its raw value goes for later conditions; nil: it has none (not an integer, or repeated).
        let slot: Int?
        /// Its bytes; nil: the rest of the value (text).
        let size: Int?
        /// Written as digits (an integer, scaled by a power of ten or not); nil: through the decoder.
        let digits: Digits?
        let repeated: Bool
        let published: Bool
        let hasBits: Bool
        let key: Range<Int>
    }

    /// Bit `bit` of the value in `slot` must be `set`.
    private struct Condition {
        let slot: Int
        let bit: UInt64
        let set: Bool
    }

    private struct Digits {
        /// The integer's size where it is signed; nil: unsigned.
        let signedBytes: Int?
        let bigEndian: Bool
        let scale: DecimalScale
    }

    /// Nil for a characteristic that publishes its fields on leaves of their own.
    init?(_ characteristic: DeclaredCharacteristic) {
        guard let topic = characteristic.topic else { return nil }
        self.characteristic = characteristic
        self.topic = topic
        // A condition reads the newest value read under its field's name, as the decoder's search from the newest does;
        // a name never read reads 0 (the last slot, never written).
        var slots: [String: Int] = [:]
        for field in characteristic.fields where field.type.isInteger && !field.repeated && slots[field.name] == nil {
            slots[field.name] = slots.count
        }
        let unread = slots.count
        slotCount = unread + 1
        var steps: [Step] = []
        var conditions: [Condition] = []
        var keys: [UInt8] = []
        var bitKeys: [[Range<Int>]] = []
        func key(_ name: String) -> Range<Int> {
            let start = keys.count
            keys += #","\#(name)":"#.utf8
            return start..<keys.count
        }
        for (index, field) in characteristic.fields.enumerated() {
            let start = conditions.count
            conditions += field.conditions.map {
                Condition(slot: slots[$0.field] ?? unread, bit: UInt64($0.bit), set: $0.set)
            }
            bitKeys.append(field.bits.map { key($0.name) })
            steps.append(
                Step(
                    field: index, conditions: start..<conditions.count,
                    slot: field.type.isInteger && !field.repeated ? slots[field.name] : nil, size: field.type.size,
                    digits: Self.digits(field), repeated: field.repeated, published: field.published,
                    hasBits: !field.bits.isEmpty, key: key(field.name)))
        }
        self.steps = steps
        self.conditions = conditions
        self.keys = keys
        self.bitKeys = bitKeys
        directCapacity =
            steps.allSatisfy { $0.digits != nil && !$0.hasBits && $0.size != nil }
            ? 2 + steps.reduce(0) { $0 + $1.key.count + ShortText.capacity } : nil
    }

    /// How an integer field is written as digits; nil where the decoder's value is needed (a name for a value, an
    /// offset, rounding, a list).
    private static func digits(_ field: DeclaredField) -> Digits? {
        guard !field.repeated, field.enumeration.isEmpty, field.unlisted == nil, field.decimals == nil,
            field.offset == 0
        else { return nil }
        switch field.type {
        case .unsigned(_, let bigEndian): return Digits(signedBytes: nil, bigEndian: bigEndian, scale: field.scale)
        case .signed(let bytes, let bigEndian):
            return Digits(signedBytes: bytes, bigEndian: bigEndian, scale: field.scale)
        default: return nil
        }
    }

    /// One value's leaf: its JSON on the characteristic's topic; throws what the decoder throws for the same bytes.
    func leaves(of bytes: [UInt8]) throws(DeclaredDecodeError) -> [LeafOutput] {
        guard bytes.count <= DeclaredDecoder.maximumByteCount else {
            throw failure(.tooLong(maximum: DeclaredDecoder.maximumByteCount, actual: bytes.count))
        }
        let payload: String
        if let capacity = directCapacity {
            payload = try direct(bytes, capacity)
        } else {
            payload = String(decoding: try json(bytes), as: UTF8.self)
        }
        return [characteristic.retain ? .state(topic, payload) : .value(topic, payload, qos: 0)]
    }

    /// `json(bytes)` as a string, for a characteristic whose fields are all integers written as digits, without bit
    /// fields (the SIG's measurements, mostly): written straight into the string's own storage, which `capacity`
    /// bounds, rather than into an array then copied and checked as UTF-8.
    private func direct(_ bytes: [UInt8], _ capacity: Int) throws(DeclaredDecodeError) -> String {
        var refused: DeclaredDecodeReason?
        let text = String(unsafeUninitializedCapacity: capacity) { buffer in
            var count = 0
            buffer[0] = UInt8(ascii: "{")
            count = 1
            var slots = InlineSlots(count: slotCount)
            var position = 0
            for step in steps {
                guard isPresent(step, slots), let digits = step.digits, let size = step.size else { continue }
                guard size <= bytes.count - position else {
                    let name = characteristic.fields[step.field].name
                    refused = .tooShort(field: name, needed: size, left: bytes.count - position)
                    return 0
                }
                let raw = DeclaredDecoder.integer(bytes[position..<position + size], bigEndian: digits.bigEndian)
                position += size
                if let slot = step.slot { slots[slot] = raw }
                guard step.published else { continue }
                keys.withUnsafeBufferPointer { keys in
                    for index in Self.member(step.key, first: count == 1) {
                        buffer[count] = keys[index]
                        count += 1
                    }
                }
                var text = ShortText()
                Self.number(raw, digits, into: &text)
                count = text.copy(into: buffer, at: count)
            }
            guard position == bytes.count else {
                refused = .trailingBytes(bytes.count - position)
                return 0
            }
            buffer[count] = UInt8(ascii: "}")
            return count + 1
        }
        if let refused { throw failure(refused) }
        return text
    }

    /// One value's JSON object, of a value no longer than an attribute value can be.
    private func json(_ bytes: [UInt8]) throws(DeclaredDecodeError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(24 * steps.count + 2)
        output.append(UInt8(ascii: "{"))
        var slots = InlineSlots(count: slotCount)
        var position = 0
        for index in steps.indices {
            let step = steps[index]
            guard isPresent(step, slots) else { continue }
            let left = bytes.count - position
            if step.repeated {
                try appendRepeated(step, bytes[position...], to: &output)
                position = bytes.count
                continue
            }
            // Text takes the rest of the value; every other type its size.
            let size = step.size ?? left
            guard size <= left else {
                throw failure(.tooShort(field: characteristic.fields[step.field].name, needed: size, left: left))
            }
            let slice = bytes[position..<position + size]
            position += size
            // As the decoder: the raw value kept for later conditions, the bit fields, then the field itself.
            let raw: UInt64?
            var read: DeclaredValue?
            if let digits = step.digits {
                raw = DeclaredDecoder.integer(slice, bigEndian: digits.bigEndian)
            } else {
                (read, raw) = try DeclaredDecoder.value(
                    of: characteristic.fields[step.field], in: slice, characteristic: characteristic.uuid)
            }
            if let slot = step.slot, let raw { slots[slot] = raw }
            if step.hasBits { appendBits(of: step.field, raw ?? 0, to: &output) }
            guard step.published else { continue }
            appendKey(step.key, to: &output)
            if let digits = step.digits, let raw {
                var text = ShortText()
                Self.number(raw, digits, into: &text)
                text.append(to: &output)
            } else if let read {
                DeclaredLeaves.appendJSON(read, to: &output)
            }
        }
        guard position == bytes.count else { throw failure(.trailingBytes(bytes.count - position)) }
        output.append(UInt8(ascii: "}"))
        return output
    }

    /// Whether every condition of the step holds for the raw values read so far.
    private func isPresent(_ step: Step, _ slots: InlineSlots) -> Bool {
        conditions.withUnsafeBufferPointer { conditions in
            for index in step.conditions {
                let wanted = conditions[index]
                if (slots[wanted.slot] >> wanted.bit & 1 == 1) != wanted.set { return false }
            }
            return true
        }
    }

    private func failure(_ reason: DeclaredDecodeReason) -> DeclaredDecodeError {
        DeclaredDecodeError(characteristic: characteristic.uuid, reason: reason)
    }

    /// A repeated field: one or more values to the end, as a JSON list.
    private func appendRepeated(_ step: Step, _ rest: ArraySlice<UInt8>, to output: inout [UInt8])
        throws(DeclaredDecodeError)
    {
        let field = characteristic.fields[step.field]
        let size = step.size ?? 1
        guard rest.count.isMultiple(of: size) else {
            throw failure(.partialRepeat(field: field.name, left: rest.count))
        }
        guard !rest.isEmpty else { throw failure(.tooShort(field: field.name, needed: size, left: 0)) }
        var values: [DeclaredValue] = []
        var index = rest.startIndex
        while index < rest.endIndex {
            let element = rest[index..<index + size]
            values.append(try DeclaredDecoder.value(of: field, in: element, characteristic: characteristic.uuid).value)
            index += size
        }
        guard step.published else { return }
        appendKey(step.key, to: &output)
        DeclaredLeaves.appendJSON(.list(values), to: &output)
    }

    /// A field's bit fields, each a member of its own, as the decoder names them.
    private func appendBits(of field: Int, _ raw: UInt64, to output: inout [UInt8]) {
        for (bits, key) in zip(characteristic.fields[field].bits, bitKeys[field]) {
            appendKey(key, to: &output)
            DeclaredLeaves.appendJSON(bits.value(in: raw), to: &output)
        }
    }

    /// `"name":`, after a comma unless the object is empty so far. Copied from the keys' storage as it is (a slice of
    /// the array retained and released it, twice a key).
    private func appendKey(_ key: Range<Int>, to output: inout [UInt8]) {
        let range = Self.member(key, first: output.count == 1)
        keys.withUnsafeBufferPointer { output.append(contentsOf: UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// A key's bytes in `keys` as written: without its comma for an object's first member.
    private static func member(_ key: Range<Int>, first: Bool) -> Range<Int> {
        first ? key.lowerBound + 1..<key.upperBound : key
    }

    /// An integer field's value, `raw` read as its type and scaled: its digits where they are exact and are what JSON's
    /// text of the nearest double would be (`ExactDecimal`), else that text.
    private static func number(_ raw: UInt64, _ digits: Digits, into text: inout ShortText) {
        let value: Int64
        if let bytes = digits.signedBytes {
            value = DeclaredDecoder.signExtended(raw, bytes: bytes)
        } else if raw <= UInt64(Int64.max) {
            value = Int64(raw)
        } else {
            // Beyond Int64: exact as it is, or scaled as a double, as the decoder does.
            if digits.scale == .one { return text.pushDigits(raw) }
            return text.push(DeclaredLeaves.json(.number(digits.scale.apply(Double(raw)))))
        }
        if digits.scale == .one { return text.pushInteger(value) }
        if !ExactDecimal.write(value, scaledBy: digits.scale, into: &text) {
            text.push(DeclaredLeaves.json(.number(digits.scale.apply(Double(value)))))
        }
    }
}

/// The raw values a value's conditions read: on the stack for up to eight slots (a declaration's flags fields are one
/// or two), else in an array.
private struct InlineSlots {
    private var inline: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var spilled: [UInt64]

    init(count: Int) { spilled = count > 8 ? Array(repeating: 0, count: count) : [] }

    subscript(slot: Int) -> UInt64 {
        get {
            guard spilled.isEmpty else { return spilled[slot] }
            return withUnsafeBytes(of: inline) { $0.load(fromByteOffset: slot * 8, as: UInt64.self) }
        }
        set {
            guard spilled.isEmpty else {
                spilled[slot] = newValue
                return
            }
            withUnsafeMutableBytes(of: &inline) { $0.storeBytes(of: newValue, toByteOffset: slot * 8, as: UInt64.self) }
        }
    }
}
