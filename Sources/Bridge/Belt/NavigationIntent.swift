import Peripherals

/// What a belt's users asked navigation to be, as the broker keeps it for whichever gateway serves the
/// belt next: the retained `belt/<id>/navigation` (state) and `belt/<id>/navigation_signal` (the signal,
/// in the `navigation` command's own fields). A fleet's new owner, or a restarted gateway, takes it over.
struct NavigationIntent: Sendable, Equatable {
    var state: BeltNavigation.State?
    /// nil: not heard yet; `.some(nil)`: heard empty (no signal: stopped).
    var signal: BeltNavigation.Signal??

    /// The navigation to run, or nil while half of it is still unknown.
    var navigation: BeltNavigation? {
        guard let state else { return nil }
        var navigation = BeltNavigation()
        guard state != .stopped else { return navigation }
        guard case .some(.some(let signal)) = signal, (try? navigation.start(signal, now: .now)) != nil else {
            return nil
        }
        if state == .paused { _ = navigation.pause() }
        return navigation
    }

    /// `belt/<id>/navigation_signal`'s payload: the signal as the `navigation` command takes it, or empty.
    static func payload(_ signal: BeltNavigation.Signal?) -> String {
        guard let signal else { return "" }
        var fields: [String: JSONValue] = [
            "direction": .number(Double(signal.direction)), "orientation": .string(signal.orientation.name),
            "signal": .string(signal.preset?.name ?? "none"),
        ]
        if let intensity = signal.intensity { fields["intensity"] = .number(Double(intensity)) }
        return JSONValue.object(fields).text
    }

    /// Reads that payload; nil for a malformed one (logged by the caller), `.some(nil)` for empty.
    static func signal(from payload: [UInt8]) -> BeltNavigation.Signal?? {
        guard !payload.isEmpty else { return .some(nil) }
        guard let fields = try? CommandPayload(bytes: payload),
            let signal = try? BeltCommandParser.navigationSignal(fields)
        else { return nil }
        return .some(signal)
    }
}
