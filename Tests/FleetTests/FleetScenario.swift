import Fleet
import TestSupport

/// One simulated fleet, drawn entirely from a seed: gateways, devices, radio means and noise,
/// slot capacities and how hostile the network is before it goes quiet.
struct FleetScenario: CustomStringConvertible, Sendable {
    var seed: UInt64
    var gatewayCount: Int
    var deviceCount: Int
    /// Standard deviation of each RSSI sample around its mean, in dB.
    var sigma: Double
    /// dB between consecutive gateways in each device's ladder of mean RSSI.
    var gap: Int
    /// Mean RSSI of each gateway for each device; nil when the device is out of its range.
    var means: [[Double?]]
    /// Connection slots of each gateway.
    var capacities: [Int]
    /// Share of claims lost during the chaos phase.
    var lossRate: Double
    /// Kills, restarts, partitions, link drops and failed connects happen only before this.
    var chaosSeconds: Int64
    /// Time from the end of chaos until the properties are checked.
    var settleSeconds: Int64
    /// Time during which the properties are checked.
    var measureSeconds: Int64
    /// When each gateway first starts.
    var startSeconds: [Int64]
    var policy = OwnershipPolicy.standard

    /// Largest mean advantage (dB) of another gateway over a settled owner for which the
    /// simulation demands that noise never moves the device. Below the 16 dB hysteresis with a
    /// margin that depends on the noise: at σ 8 dB and 15 dB, a weaker owner was seen to hand over
    /// to the stronger gateway about once per 200 device-hours, which is not flapping but is a change.
    var stableMargin: Int {
        sigma <= 4 ? 15 : 12
    }

    /// A chaotic scenario: random size, noise, gap, loss and layout.
    static func chaotic(seed: UInt64, chaosSeconds: Int64, settleSeconds: Int64, measureSeconds: Int64) -> FleetScenario
    {
        var random = SplitMix64(seed: seed)
        let gateways = random.integer(in: 2...5)
        let devices = random.integer(in: 1...8)
        let sigma = random.element(of: [4.0, 8.0])
        let gap = random.element(of: [0, 8, 15])
        let means = meanLadders(gateways: gateways, devices: devices, gap: gap, outOfRange: 0.15, random: &random)
        let capacities = (0..<gateways).map { gateway in
            let heard = max(1, means[gateway].compactMap { $0 }.count)
            return random.chance(0.5) ? heard : random.integer(in: 1...heard)
        }
        return FleetScenario(
            seed: seed,
            gatewayCount: gateways,
            deviceCount: devices,
            sigma: sigma,
            gap: gap,
            means: means,
            capacities: capacities,
            lossRate: random.unit() * 0.3,
            chaosSeconds: chaosSeconds,
            settleSeconds: settleSeconds,
            measureSeconds: measureSeconds,
            startSeconds: (0..<gateways).map { _ in Int64(random.integer(in: 0...30)) }
        )
    }

    /// A calm scenario for stability: no chaos, every device heard by every gateway, room for all,
    /// and the weakest gateway of each device's ladder starts first so it owns the devices when the
    /// stronger ones arrive (two minutes apart) — the case where noise could tempt a hand-over. The
    /// seed only drives the noise and the network delays.
    static func calm(seed: UInt64, gateways: Int, devices: Int, sigma: Double, gap: Int, measureSeconds: Int64)
        -> FleetScenario
    {
        // One shared ladder order so that "weakest starts first" holds for every device at once.
        let means = (0..<gateways).map { gateway in
            (0..<devices).map { _ -> Double? in -55 - Double(gap * gateway) }
        }
        let weakestFirst = (0..<gateways).map { gateway in Int64((gateways - 1 - gateway) * 120) }
        return FleetScenario(
            seed: seed,
            gatewayCount: gateways,
            deviceCount: devices,
            sigma: sigma,
            gap: gap,
            means: means,
            capacities: Array(repeating: devices, count: gateways),
            lossRate: 0,
            chaosSeconds: 0,
            settleSeconds: weakestFirst.max()! + 60,
            measureSeconds: measureSeconds,
            startSeconds: weakestFirst
        )
    }

    /// Each device gets a random order of gateways; the n-th in that order hears it `n × gap` dB
    /// weaker than the first. Some pairs are out of range, but never the first of a ladder.
    private static func meanLadders(
        gateways: Int,
        devices: Int,
        gap: Int,
        outOfRange: Double,
        random: inout SplitMix64
    ) -> [[Double?]] {
        var means = Array(repeating: Array(repeating: Double?.none, count: devices), count: gateways)
        for device in 0..<devices {
            let base = Double(random.integer(in: -65...(-50)))
            var order = Array(0..<gateways)
            for index in stride(from: order.count - 1, to: 0, by: -1) {
                order.swapAt(index, random.integer(in: 0...index))
            }
            for (rank, gateway) in order.enumerated() where rank == 0 || !random.chance(outOfRange) {
                means[gateway][device] = base - Double(gap * rank)
            }
        }
        return means
    }

    /// True when some live gateway hearing the device has a slot for every device it hears, so a
    /// slot is always free for this device and it must end up owned.
    func isFeasible(device: Int, alive: [Bool]) -> Bool {
        (0..<gatewayCount).contains { gateway in
            alive[gateway] && means[gateway][device] != nil
                && capacities[gateway] >= means[gateway].compactMap { $0 }.count
        }
    }

    var description: String {
        "seed \(seed): \(gatewayCount) gateways × \(deviceCount) devices, σ \(sigma) dB, gap \(gap) dB, "
            + "loss \(Int(lossRate * 100)) %, slots \(capacities)"
    }
}
