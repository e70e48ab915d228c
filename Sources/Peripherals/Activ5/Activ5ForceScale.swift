/// Conversion between raw force counts and newtons, which differs by protocol (activ5.md §4.4, §5.1).
public enum Activ5ForceScale: Sendable {
    /// Newtons per count of a legacy `IS<n>/IS` value: the newest iOS library's `toNewtonsLegacy`. Older
    /// clients passed the raw value through as "newtons"; the newest first-party code is followed.
    public static let legacyNewtonsPerCount = 1.08625263633
    /// Newtons per count of an F0FE value: iOS `toNewtons`, exactly ¼ of the legacy factor.
    public static let newNewtonsPerCount = 0.27156315909

    /// Newtons per raw count for a protocol.
    public static func newtonsPerCount(_ wireProtocol: Activ5Protocol) -> Double {
        switch wireProtocol {
        case .legacy: legacyNewtonsPerCount
        case .new: newNewtonsPerCount
        }
    }

    /// Newtons for a raw legacy `IS` value.
    public static func newtons(legacyRaw raw: Int) -> Double { Double(raw) * legacyNewtonsPerCount }

    /// Newtons for a raw F0FE value.
    public static func newtons(newRaw raw: Int16) -> Double { Double(raw) * newNewtonsPerCount }

    /// The legacy raw value nearest to `newtons`; non-finite input gives 0.
    public static func legacyRaw(newtons: Double) -> Int {
        let counts = (newtons / legacyNewtonsPerCount).rounded()
        // Int(exactly:) keeps huge values from trapping; the wire holds decimal text, so any Int fits.
        return counts.isFinite ? Int(exactly: counts.clamped(to: -1e15...1e15)) ?? 0 : 0
    }

    /// The F0FE raw value nearest to `newtons`, clamped to int16; non-finite input gives 0.
    public static func newRaw(newtons: Double) -> Int16 {
        let counts = (newtons / newNewtonsPerCount).rounded()
        guard counts.isFinite else { return 0 }
        return Int16(counts.clamped(to: Double(Int16.min)...Double(Int16.max)))
    }
}

extension Double {
    /// The value limited to `range`.
    func clamped(to range: ClosedRange<Double>) -> Double {
        Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}
