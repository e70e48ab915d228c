/// What a simulated vibration channel was last told to play.
public enum BeltChannelActivity: Sendable, Equatable {
    /// A channel configuration.
    case pattern(ChannelConfiguration)
    /// A pulse command.
    case pulse(PulseConfiguration)
}
