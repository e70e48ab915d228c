/// A declared value's Home Assistant entity as its declaration asks (`homeassistant:` of a field or bit field): what it
/// says replaces what the gateway derives (docs/devices.md); nil fields keep the derived choice.
public struct DeclaredEntity: Sendable, Equatable {
    /// False: no entity for this value (`homeassistant: false`).
    public var shown = true
    /// `sensor` or `binary_sensor` (a one-bit bit field only).
    public var component: String?
    /// Home Assistant's device class (`temperature`, `power`, `speed`).
    public var deviceClass: String?
    /// `measurement`, `total`, `total_increasing`, or `none` (no state class: a value that is not a measurement).
    public var stateClass: String?
    /// Whether Home Assistant adds it enabled: `false` adds it disabled; `true` adds a stream enabled, where streams
    /// that are not retained come disabled.
    public var enabled: Bool?
    /// Its name in Home Assistant; nil: from the value's name (`wheel_revolutions` → "Wheel revolutions").
    public var name: String?
    /// `mdi:…`.
    public var icon: String?

    public init(
        shown: Bool = true, component: String? = nil, deviceClass: String? = nil, stateClass: String? = nil,
        enabled: Bool? = nil, name: String? = nil, icon: String? = nil
    ) {
        self.shown = shown
        self.component = component
        self.deviceClass = deviceClass
        self.stateClass = stateClass
        self.enabled = enabled
        self.name = name
        self.icon = icon
    }

    /// The state classes Home Assistant knows, and `none`.
    public static let stateClasses = ["measurement", "total", "total_increasing", "none"]
    public static let components = ["sensor", "binary_sensor"]
}
