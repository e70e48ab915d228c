#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A calendar date and wall-clock time for OLIVER's older handshake, which wrote `D<ddMMyyyy>/D` and
/// `T<HHmmss>/T` after `TVGTIME` (activ5.md §4.5 D). Current clients do not send them.
public struct Activ5DateTime: Sendable, Equatable {
    /// Day of month, 1–31.
    public let day: Int
    /// Month, 1–12.
    public let month: Int
    /// Year, 0–9999 (four digits on the wire).
    public let year: Int
    /// Hour, 0–23.
    public let hour: Int
    /// Minute, 0–59.
    public let minute: Int
    /// Second, 0–59.
    public let second: Int

    /// Validates the fields.
    /// - Throws: `FieldError` naming the first field out of range.
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0)
        throws(FieldError)
    {
        try FieldError.check(year, in: 0...9999, field: "year")
        try FieldError.check(month, in: 1...12, field: "month")
        try FieldError.check(day, in: 1...31, field: "day")
        try FieldError.check(hour, in: 0...23, field: "hour")
        try FieldError.check(minute, in: 0...59, field: "minute")
        try FieldError.check(second, in: 0...59, field: "second")
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The fields of `date` in `timeZone` (Gregorian). Leap seconds are folded into second 59.
    public init(_ date: Date, timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        // Components of a Gregorian date always lie in range, except years beyond four digits.
        year = min(max(parts.year ?? 0, 0), 9999)
        month = parts.month ?? 1
        day = parts.day ?? 1
        hour = parts.hour ?? 0
        minute = parts.minute ?? 0
        second = min(parts.second ?? 0, 59)
    }

    /// `ddMMyyyy`, e.g. `22112019`.
    public var dateDigits: String { Self.digits(day, 2) + Self.digits(month, 2) + Self.digits(year, 4) }
    /// `HHmmss`, e.g. `123000`.
    public var timeDigits: String { Self.digits(hour, 2) + Self.digits(minute, 2) + Self.digits(second, 2) }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
