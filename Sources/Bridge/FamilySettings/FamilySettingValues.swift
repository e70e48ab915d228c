#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The values given for one family's section, merged from the file, the environment and the command
/// line, as the family's `FamilySettings.init(from:)` reads them. Keys are paths in the section; a key
/// not given reads as nil.
public protocol FamilySettingValues {
    func text(_ path: String) -> String?
    /// A finite number; an infinite or NaN value is an error.
    func number(_ path: String) throws(FamilySettingError) -> Double?
    func integer(_ path: String) -> Int?
    func integers(_ path: String) -> [Int]?
    /// Whether any source gives the key.
    func isSet(_ path: String) -> Bool
    /// The key's name as the user gave it (`a5.squeeze_newtons` or `--a5-squeeze-newtons`), for messages
    /// that name another key.
    func name(_ path: String) -> String
    /// The contents of the file a `.path` key names; an unreadable file is an error saying why.
    func contents(of path: String) throws(FamilySettingError) -> Data
}

extension FamilySettingValues {
    /// A period in seconds, 1 to 86400.
    public func interval(_ path: String) throws(FamilySettingError) -> Duration? {
        guard let seconds = try number(path) else { return nil }
        guard let interval = PeriodicInterval.duration(seconds: seconds) else {
            throw FamilySettingError(path, PeriodicInterval.refusal(seconds))
        }
        return interval
    }
}

/// The period of a family's periodic work, the family's (`a5.battery_s`) or one device's (`devices.intervals`), checked
/// by one rule: 1 to 86400 seconds.
public enum PeriodicInterval {
    /// Nil outside 1 to 86400 seconds.
    public static func duration(seconds: Double) -> Duration? {
        guard seconds >= 1, seconds <= 86400 else { return nil }
        return .milliseconds(Int((seconds * 1000).rounded()))
    }

    /// What a refused value is told.
    public static func refusal(_ seconds: Double) -> String {
        "must be a number of seconds from 1 to 86400, not \(EffectiveSetting.number(seconds))"
    }
}
