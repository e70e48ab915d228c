import Peripherals

/// What a button press does to the simulated belt (belt.md §4.2, IOS-DOC; the firmware itself is
/// unknown, so these are decisions):
///
/// - power: short → no mode change (the belt vibrates its battery level); long → standby (switch off).
/// - pause: in app mode → no change, the app decides (it writes mode 4); in pause → back to the mode
///   before the pause; otherwise → pause.
/// - compass: short → compass, or back to wait when already in compass; long → calibration.
///   In pause it lowers the default intensity instead.
/// - home: in pause it raises the default intensity; otherwise no change (in app mode the app acts;
///   a long press would start pairing, which the simulator does not model).
///
/// A press that changes the mode is reported on FE04 only, not also as FE06 `01 01 m`: IOS-DOC says a
/// button-caused change reaches only the button callback, which points to no FE06 notification
/// (belt.md §9.3). Keep-alives and `01 01` requests show the new mode.
struct BeltButtonRules {
    /// Step of the intensity buttons in pause mode.
    static let intensityStep: Int = 10

    /// The effect of one press.
    struct Effect: Equatable {
        var newMode: BeltMode
        var newIntensity: UInt8?
    }

    /// The effect of pressing `button` in `mode`; `modeBeforePause` is where pause returns to.
    static func press(
        _ button: BeltButton, long: Bool, mode: BeltMode, modeBeforePause: BeltMode?, intensity: UInt8
    ) -> Effect {
        switch (button, mode) {
        case (.power, _): return Effect(newMode: long ? .standby : mode)
        case (.pause, .app): return Effect(newMode: mode)
        case (.pause, .pause): return Effect(newMode: modeBeforePause ?? .wait)
        case (.pause, _): return Effect(newMode: .pause)
        case (.compass, .pause): return Effect(newMode: mode, newIntensity: step(intensity, by: -intensityStep))
        case (.compass, _) where long: return Effect(newMode: .calibration)
        case (.compass, .compass): return Effect(newMode: .wait)
        case (.compass, _): return Effect(newMode: .compass)
        case (.home, .pause): return Effect(newMode: mode, newIntensity: step(intensity, by: intensityStep))
        case (.home, _): return Effect(newMode: mode)
        }
    }

    private static func step(_ intensity: UInt8, by delta: Int) -> UInt8 {
        UInt8(min(100, max(Int(BeltState.minimumDefaultIntensity), Int(intensity) + delta)))
    }
}
