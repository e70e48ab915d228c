/// Home Assistant's recorder writes a database row for every state an enabled entity takes, and keeps long-term
/// statistics of every sensor with a `state_class`: a belt's heading (two a second), an Activ5's force (ten a
/// second) or a CPR band's wrist angle (ten a second) would each add a row for nearly every value, for years.
/// Streams faster than a value every few seconds are therefore announced disabled (`enabled_by_default: false`,
/// as Zigbee2MQTT announces its fast and noisy values), not throttled into a slower state: a user who enables one
/// (per entity in Home Assistant, or every one with `homeassistant.fast_streams: true`) gets every value as
/// the MQTT API carries it, no second topic carries a slowed copy, and the broker's traffic stays what it was.
extension HomeAssistantModel.Entity {
    /// This entity, marked as a fast stream: disabled when Home Assistant first adds it, unless
    /// `homeassistant.fast_streams` is on.
    func fastStream() -> Self {
        var entity = self
        entity.isFastStream = true
        return entity
    }
}
