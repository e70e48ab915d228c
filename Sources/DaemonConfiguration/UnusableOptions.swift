import Bridge

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The options changed over MQTT (`<state_directory>/options.json`) when the start cannot use them: no regular file,
/// no JSON object, or settings the configuration file would refuse too (written by another version, or by hand).
/// Stopping there would keep the gateway down until someone removes the file, over options that are never more than
/// changes to the file's settings: it starts on those settings instead, and the daemon sets the file aside with a
/// timestamp (`DurableFile.setAside`), where a person can still read it and the next `request/options` does not
/// overwrite it. Reading the configuration alone (`--print-config`) only says so.
public struct UnusableOptions: Sendable, Equatable {
    public let file: String
    /// What is wrong, as a configuration error says it (`health_s: must be a number …`).
    public let reason: String

    /// Renames the file to `options.json.damaged-<UTC time>` and returns the error line that says so.
    public func setAside(at time: Date = Date()) -> String {
        let outcome: String
        do throws(DurableFile.Failure) {
            outcome = "set aside as \(try DurableFile.setAside(file, at: time))"
        } catch {
            outcome = "left where it is (\(error.description))"
        }
        return "cannot use the options kept over MQTT (\(reason)); \(outcome); "
            + "the gateway starts on the configuration file's settings without them"
    }
}
