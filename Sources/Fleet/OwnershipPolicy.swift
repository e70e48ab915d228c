/// The numbers of the ownership rules. Every gateway of a fleet must use the same policy: the
/// rules only agree when they run on the same numbers.
public struct OwnershipPolicy: Hashable, Sendable {
    /// How often a gateway republishes its claim for each device.
    public var refreshInterval: Duration
    /// How long another gateway's claim counts after it arrived, on the receiver's own clock.
    /// Three refresh intervals: a claim may be lost or late twice before its sender is presumed gone.
    public var lease: Duration
    /// How long a device must have been ownerless in a gateway's view before it takes ownership,
    /// so that the claims of every candidate (and the old owner's link closing) have arrived.
    public var settle: Duration
    /// How many dB stronger a candidate must be before the owner hands the device over
    /// (habluetooth's `ADV_RSSI_SWITCH_THRESHOLD`).
    public var hysteresis: Int
    /// Extra dB a gateway needs to win back a device it handed over to the current owner
    /// (habluetooth's `ADV_RSSI_SWITCH_DEADBAND`).
    public var winBackDeadband: Int
    /// How long a candidate must stay more than the hysteresis stronger before the owner hands
    /// over; one lucky reading must not move a connection.
    public var challengePeriod: Duration
    /// How long an owner keeps a device at least before it hands it over to a stronger candidate.
    public var minimumDwell: Duration
    /// How long an owner whose link dropped (or never came up) keeps trying before it releases.
    public var linkGrace: Duration

    /// Creates a policy; by default the lease is three refresh intervals and the settle period one
    /// and a half.
    public init(
        refreshInterval: Duration = .seconds(10),
        lease: Duration? = nil,
        settle: Duration? = nil,
        hysteresis: Int = 16,
        winBackDeadband: Int = 6,
        challengePeriod: Duration = .seconds(60),
        minimumDwell: Duration = .seconds(60),
        linkGrace: Duration = .seconds(30)
    ) {
        self.refreshInterval = refreshInterval
        self.lease = lease ?? refreshInterval * 3
        self.settle = settle ?? refreshInterval * 3 / 2
        self.hysteresis = hysteresis
        self.winBackDeadband = winBackDeadband
        self.challengePeriod = challengePeriod
        self.minimumDwell = minimumDwell
        self.linkGrace = linkGrace
    }

    /// How long the (incarnation, sequence) of another gateway's last accepted claim holds back older ones when
    /// nothing newer comes: two leases. A live gateway renews it every refresh; a forged claim with the largest
    /// incarnation silences the gateway it names for this long at most, not for ever.
    public var claimMemory: Duration { lease * 2 }

    /// The defaults: refresh 10 s, lease 30 s, settle 15 s, hysteresis 16 dB, win-back deadband
    /// 6 dB, challenge period 60 s, minimum dwell 60 s, link grace 30 s.
    public static let standard = OwnershipPolicy()
}
