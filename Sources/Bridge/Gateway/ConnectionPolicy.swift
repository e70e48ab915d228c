/// Whether the gateway wants a device connected, from everything the users chose and the gateway knows of it: the one
/// answer the device policy (`DeviceSessions.considerDevice`), the fleet's claims (`FleetService`, which offers no
/// free slot for a device the users keep away) and the inventory (`adopted`) all take. Pure, so that one table test
/// (`ConnectionPolicyTests`) holds every rule; where a wanted device connects (the adapter with a free slot, the
/// fleet's owner) is decided after it.
enum ConnectionPolicy {
    /// What is known of one device.
    struct Inputs: Equatable, Sendable {
        /// `auto_connect: all`, or the allow list names it.
        var policyAllows = false
        /// Bonded, and of a family whose bonds the gateway restores (the grip).
        var restoresBond = false
        /// A `connect` (or `pair`) request asked for it.
        var requested = false
        /// A `disconnect` request took it down.
        var released = false
        /// `auto_connect: adopted` (the default): adopted devices connect by themselves.
        var followsAdoption = false
        var adopted = false
        /// A join window (`permit_join`) is open: a device of a known family is adopted on sight.
        var joinWindowOpen = false
        /// A `forget` request is removing it from BlueZ: it is nobody's until that is done.
        var beingForgotten = false
        /// In a fleet, whether this gateway may connect it now (it owns it, or it is alone); true outside one.
        var fleetAllows = true
    }

    /// Whose the device is.
    enum Membership: Equatable, Sendable {
        /// One of the gateway's: served and announced.
        case member
        /// A stranger that a join window adopts now.
        case joining
        /// Only seen: no slot, no topic, nothing retained.
        case stranger
    }

    enum Verdict: Equatable, Sendable {
        /// Connect it (`adopting`: adopt it first, a join window is open).
        case connect(adopting: Bool)
        /// Leave it alone, and why.
        case stay(Reason)
    }

    enum Reason: String, Equatable, Sendable {
        /// A `disconnect` request took it down, and no `connect` request since.
        case released
        /// Not adopted, not allowed, not asked for.
        case stranger
        /// Another gateway of the fleet owns it.
        case anotherGatewayOwns
        /// A `forget` request is removing it.
        case beingForgotten
    }

    /// Whose the device is: the policy allows it, its bond is restored, a request asked for it, or (under adoption)
    /// it is adopted, or joins through an open window; never while a `forget` request removes it.
    static func membership(_ inputs: Inputs) -> Membership {
        if inputs.beingForgotten { return .stranger }
        if inputs.policyAllows || inputs.restoresBond || inputs.requested { return .member }
        guard inputs.followsAdoption else { return .stranger }
        if inputs.adopted { return .member }
        return inputs.joinWindowOpen ? .joining : .stranger
    }

    /// Whether to connect it: a request always; otherwise a member the users did not take down; and in a fleet only
    /// where the fleet lets this gateway.
    static func verdict(_ inputs: Inputs) -> Verdict {
        if inputs.beingForgotten { return .stay(.beingForgotten) }
        let membership = membership(inputs)
        let wanted = inputs.requested || (membership != .stranger && !inputs.released)
        guard wanted else { return .stay(membership == .stranger ? .stranger : .released) }
        guard inputs.fleetAllows else { return .stay(.anotherGatewayOwns) }
        return .connect(adopting: membership == .joining)
    }
}
