/// The state of a simulated CPR-Band and how it answers writes to FFF4 (cpr-band-and-grip.md §A.13).
/// Pure: the simulator owns the link, the timing of depth and angle notifications while
/// `mode.isStreaming`, and carrying out the returned responses.
///
/// Decisions where the notes are silent:
/// - Ready-only rule: with `enforcesReadyOnlyRule` (the default) call, `F5`, `F6`, `F7` and `FF` are
///   ignored outside ready mode, so a bridge that breaks the vendor rule is caught. Whether the real
///   firmware ignores them is unknown; turn the flag off to accept them in any mode.
/// - Sequences: after `F5` the next 2 bytes and after `F6` the next 18 bytes are arguments, whatever
///   their value (a Latin-1 name may contain bytes F1–FF). Range bytes are stored as sent, unchecked (the
///   vendor's sample app sends 70 mm, outside the documented limit). `connect()` and `disconnect()`
///   abandon an unfinished sequence.
/// - Name: the 18 bytes are read as Latin-1 (one byte per character, as Bus sends them) and trailing
///   spaces are trimmed; the result is what the simulator advertises.
/// - Reset (`F7`): name back to `CPR-BAND` and range to 50–60 mm (the real factory range is not
///   documented; 50–60 mm is the vendor tools' default), then the band switches off like `FF`.
/// - Switched off: every byte is ignored until `connect()` (the simulator powers the band on again).
public struct CPRBandState: Sendable, Equatable {
    /// The factory name.
    public static let factoryName = CPRBandAdvertisement.factoryName
    /// The factory range, 50–60 mm (assumed, see above).
    public static let factoryRange = CPRBandDepthRange.vendorDefault
    /// Battery byte of a fresh simulated band, 3.80 V (50 % in the Bus mapping).
    public static let factoryBatteryRaw: UInt8 = 0xBE

    /// Current mode; `.ready` after connecting, `.off` after `F7` or `FF`.
    public var mode: CPRBandMode
    /// The name to advertise.
    public var name: String
    /// Lower bound of the correct-depth range, mm.
    public var minimumDepthMillimetres: UInt8
    /// Upper bound of the correct-depth range, mm.
    public var maximumDepthMillimetres: UInt8
    /// The byte returned when FFF3 is read.
    public var batteryRaw: UInt8
    /// Whether ready-only commands are ignored outside ready mode.
    public var enforcesReadyOnlyRule: Bool
    /// The `F5`/`F6` sequence awaiting arguments, if any.
    public private(set) var pendingSequence: CPRBandPendingSequence?
    /// Factory bytes received (§A.5.2), in order.
    public private(set) var factoryCommands: [CPRBandFactoryOpcode] = []

    /// Creates a band in ready mode with factory settings unless told otherwise.
    public init(
        mode: CPRBandMode = .ready, name: String = CPRBandState.factoryName,
        minimumDepthMillimetres: UInt8 = CPRBandState.factoryRange.minMillimetres,
        maximumDepthMillimetres: UInt8 = CPRBandState.factoryRange.maxMillimetres,
        batteryRaw: UInt8 = CPRBandState.factoryBatteryRaw, enforcesReadyOnlyRule: Bool = true
    ) {
        self.mode = mode
        self.name = name
        self.minimumDepthMillimetres = minimumDepthMillimetres
        self.maximumDepthMillimetres = maximumDepthMillimetres
        self.batteryRaw = batteryRaw
        self.enforcesReadyOnlyRule = enforcesReadyOnlyRule
    }

    /// The value of a read of FFF3.
    public var batteryReadValue: [UInt8] { [batteryRaw] }

    /// A central connected: the band is on, in ready mode and silent, with no sequence pending.
    public mutating func connect() {
        mode = .ready
        pendingSequence = nil
    }

    /// The central disconnected: an unfinished sequence is abandoned; the mode is kept.
    public mutating func disconnect() {
        pendingSequence = nil
    }

    /// Applies the requests of one write in order.
    public mutating func apply(_ requests: [CPRBandRequest]) -> [CPRBandResponse] {
        requests.flatMap { apply($0) }
    }

    /// Applies one request and returns what the band does.
    public mutating func apply(_ request: CPRBandRequest) -> [CPRBandResponse] {
        guard mode != .off else { return [.ignored(.poweredOff)] }
        if var sequence = pendingSequence {
            let complete = sequence.append(request.byte)
            pendingSequence = complete ? nil : sequence
            return complete ? finish(sequence) : []
        }
        switch request {
        case .factory(let opcode):
            factoryCommands.append(opcode)
            return [.factoryCommandRecorded(opcode)]
        case .value(let byte):
            return [.ignored(.unexpectedValue(byte))]
        case .command(let opcode):
            if enforcesReadyOnlyRule && opcode.requiresReadyMode && mode != .ready {
                return [.ignored(.notReady(opcode, mode: mode))]
            }
            return run(opcode)
        }
    }

    private mutating func run(_ opcode: CPRBandOpcode) -> [CPRBandResponse] {
        switch opcode {
        case .ready: return setMode(.ready)
        case .practice: return setMode(.practicing)
        case .evaluationStart: return setMode(.evaluating)
        case .call: return [.called]
        case .newRange, .newName:
            pendingSequence = CPRBandPendingSequence(opcode: opcode)
            return []
        case .reset:
            name = Self.factoryName
            minimumDepthMillimetres = Self.factoryRange.minMillimetres
            maximumDepthMillimetres = Self.factoryRange.maxMillimetres
            mode = .off
            return [.factoryReset, .poweredOff]
        case .powerOff:
            mode = .off
            return [.poweredOff]
        }
    }

    private mutating func setMode(_ newMode: CPRBandMode) -> [CPRBandResponse] {
        mode = newMode
        return [.modeSet(newMode)]
    }

    private mutating func finish(_ sequence: CPRBandPendingSequence) -> [CPRBandResponse] {
        let arguments = sequence.arguments
        if sequence.opcode == .newRange {
            minimumDepthMillimetres = arguments[0]
            maximumDepthMillimetres = arguments[1]
            return [.rangeChanged(minMillimetres: arguments[0], maxMillimetres: arguments[1])]
        }
        var scalars = String.UnicodeScalarView(arguments.map { Unicode.Scalar($0) })
        while scalars.last == " " { scalars.removeLast() }
        name = String(scalars)
        return [.nameChanged(name)]
    }
}
