import Testing

@testable import Bridge

/// Issue #45, item 2: "should this device connect?" has one answer, a pure function of what the users chose and the
/// gateway knows; this table is every rule of it.
struct ConnectionPolicyTests {
    typealias Inputs = ConnectionPolicy.Inputs

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var inputs: Inputs
        var membership: ConnectionPolicy.Membership
        var verdict: ConnectionPolicy.Verdict
        var testDescription: String { name }
    }

    static func inputs(_ change: (inout Inputs) -> Void) -> Inputs {
        var inputs = Inputs()
        change(&inputs)
        return inputs
    }

    static let rows: [Row] = [
        Row(
            name: "a stranger under adoption", inputs: inputs { $0.followsAdoption = true }, membership: .stranger,
            verdict: .stay(.stranger)),
        Row(
            name: "adopted",
            inputs: inputs {
                $0.followsAdoption = true
                $0.adopted = true
            }, membership: .member, verdict: .connect(adopting: false)),
        Row(
            name: "a stranger while a join window is open",
            inputs: inputs {
                $0.followsAdoption = true
                $0.joinWindowOpen = true
            },
            membership: .joining, verdict: .connect(adopting: true)),
        Row(
            name: "taken down by a disconnect request during a join window",
            inputs: inputs {
                $0.followsAdoption = true
                $0.joinWindowOpen = true
                $0.released = true
            }, membership: .joining,
            verdict: .stay(.released)),
        Row(
            name: "adopted, but the policy is no longer adoption (allowed, none)", inputs: inputs { $0.adopted = true },
            membership: .stranger, verdict: .stay(.stranger)),
        Row(
            name: "on the allow list", inputs: inputs { $0.policyAllows = true }, membership: .member,
            verdict: .connect(adopting: false)),
        Row(
            name: "on the allow list, taken down by a disconnect request",
            inputs: inputs {
                $0.policyAllows = true
                $0.released = true
            },
            membership: .member, verdict: .stay(.released)),
        Row(
            name: "a connect request for a stranger", inputs: inputs { $0.requested = true }, membership: .member,
            verdict: .connect(adopting: false)),
        Row(
            name: "a connect request after a disconnect request",
            inputs: inputs {
                $0.requested = true
                $0.released = true
            },
            membership: .member, verdict: .connect(adopting: false)),
        Row(
            name: "a bonded grip under auto_connect none", inputs: inputs { $0.restoresBond = true },
            membership: .member,
            verdict: .connect(adopting: false)),
        Row(
            name: "adopted, another gateway of the fleet owns it",
            inputs: inputs {
                $0.followsAdoption = true
                $0.adopted = true
                $0.fleetAllows = false
            }, membership: .member,
            verdict: .stay(.anotherGatewayOwns)),
        Row(
            name: "joining, another gateway owns it: not adopted here",
            inputs: inputs {
                $0.followsAdoption = true
                $0.joinWindowOpen = true
                $0.fleetAllows = false
            }, membership: .joining,
            verdict: .stay(.anotherGatewayOwns)),
        Row(
            name: "a stranger in a fleet: a stranger first",
            inputs: inputs {
                $0.followsAdoption = true
                $0.fleetAllows = false
            },
            membership: .stranger, verdict: .stay(.stranger)),
        Row(
            name: "a connect request, another gateway owns it",
            inputs: inputs {
                $0.requested = true
                $0.fleetAllows = false
            },
            membership: .member, verdict: .stay(.anotherGatewayOwns)),
        Row(
            name: "a bonded grip a forget request is removing",
            inputs: inputs {
                $0.restoresBond = true
                $0.beingForgotten = true
            },
            membership: .stranger, verdict: .stay(.beingForgotten)),
        Row(
            name: "a connect request while a forget request removes it",
            inputs: inputs {
                $0.requested = true
                $0.policyAllows = true
                $0.beingForgotten = true
            },
            membership: .stranger, verdict: .stay(.beingForgotten)),
    ]

    @Test(arguments: rows)
    func theRule(_ row: Row) {
        #expect(ConnectionPolicy.membership(row.inputs) == row.membership)
        #expect(ConnectionPolicy.verdict(row.inputs) == row.verdict)
    }

    /// Every combination of the nine inputs: the invariants the rows above are instances of.
    @Test func everyCombinationKeepsTheInvariants() {
        for bits in 0..<512 {
            let inputs = Inputs(
                policyAllows: bits & 1 != 0, restoresBond: bits & 2 != 0, requested: bits & 4 != 0,
                released: bits & 8 != 0,
                followsAdoption: bits & 16 != 0, adopted: bits & 32 != 0, joinWindowOpen: bits & 64 != 0,
                beingForgotten: bits & 256 != 0, fleetAllows: bits & 128 != 0)
            let verdict = ConnectionPolicy.verdict(inputs)
            let membership = ConnectionPolicy.membership(inputs)
            // Nothing connects where the fleet says another gateway's.
            if !inputs.fleetAllows {
                #expect(verdict != .connect(adopting: false) && verdict != .connect(adopting: true))
            }
            // Nothing being forgotten is anybody's (its bond would otherwise bring it back).
            if inputs.beingForgotten {
                #expect(membership == .stranger && verdict == .stay(.beingForgotten))
            }
            // A request connects wherever the fleet lets it, unless the device is being forgotten.
            if inputs.requested && inputs.fleetAllows && !inputs.beingForgotten {
                #expect(verdict == .connect(adopting: false))
            }
            // A stranger never connects.
            if membership == .stranger && !inputs.beingForgotten { #expect(verdict == .stay(.stranger)) }
            // Only a join window adopts, and only when it connects.
            if verdict == .connect(adopting: true) {
                #expect(inputs.joinWindowOpen && inputs.followsAdoption && !inputs.adopted)
            }
        }
    }
}
