/// The 14 grip events of the Fjorden SDK's `GripEvent` (cpr-band-and-grip.md §B.2), in the SDK's
/// declaration order. Raw values are the SDK case names, which the bridge publishes. The order is not a
/// wire encoding: the bytes live in `GripProfile.events`.
public enum GripEvent: String, Sendable, CaseIterable, Codable, Hashable {
    /// Shutter pressed fully.
    case shutterButtonDown
    /// Shutter released.
    case shutterButtonReleased
    /// Shutter pressed halfway.
    case shutterButtonHalfDown
    /// Dial turned clockwise, seen from the front of the grip.
    case dialButtonCW
    /// Dial turned counter-clockwise, seen from the front.
    case dialButtonCCW
    /// Dial pressed and released at once.
    case dialButtonPress
    /// Dial pressed and held; fires before release.
    case dialButtonLongPress
    /// Fn pressed and released at once.
    case fnButtonPress
    /// Fn pressed and held; fires before release.
    case fnButtonLongPress
    /// Zoom lever pushed and held to the left.
    case zoomLeverHoldLeft
    /// Zoom lever pushed and held to the right.
    case zoomLeverHoldRight
    /// Zoom lever flicked left, seen from the front.
    case zoomLeverLeft
    /// Zoom lever flicked right.
    case zoomLeverRight
    /// Zoom lever back at rest (ends holds and flicks; there is no other release event for the lever).
    case zoomLeverNeutral
}
