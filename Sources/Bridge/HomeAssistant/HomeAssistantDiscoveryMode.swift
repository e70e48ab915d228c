/// `homeassistant.discovery`: how the gateway's configs reach Home Assistant.
public enum HomeAssistantDiscoveryMode: String, Sendable, Equatable, CaseIterable {
    /// One retained config per device (`<prefix>/device/<node>/config`, its entities as components), which Home
    /// Assistant takes since 2024.11: a birth is answered with one message a device instead of one an entity.
    case device
    /// One retained config per entity (`<prefix>/<component>/<node>/<object>/config`), for Home Assistant before
    /// 2024.11.
    case entity
}
