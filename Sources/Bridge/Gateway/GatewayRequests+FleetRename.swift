import MQTT

/// A rename in a fleet: the fleet knows a device by `<family>/<id>`, so a device one gateway renames must have the same
/// `<id>` on every gateway that may serve it, or the fleet sees two devices and a take-over brings back the old topics.
/// A `rename` request says so on `gatt2mqtt/<gateway>/renamed` (an event, its payload the request's own), and every
/// gateway that follows that one (a member of its fleet, as for `…/forgotten`: `Adoptions+Fleet`, which subscribes to
/// it) renames the device too, keeping the alias in its own options. Nothing is said again from there, so a rename
/// goes round once. A peer's rename is checked as the request is, and one that this gateway cannot take (a name
/// that is another device's id here, no options kept) is logged and dropped.
extension GatewayRequests {
    /// The leaf of the event.
    static let renamedLeaf = "renamed"

    /// Tells the fleet of a rename this gateway's `rename` request made; a gateway alone tells nobody.
    func tellFleet(renamed address: String, to alias: String?) {
        guard sessions.fleet != nil else { return }
        let payload = JSONValue.object(["address": .string(address), "name": .string(alias ?? "")])
        context.publisher.publish(
            Publication(topic: context.topics.gatewayTopic(Self.renamedLeaf), payload: payload.text, qos: 1))
    }

    /// A member's `…/renamed` event, taken as that member's rename; false for any other topic.
    func takeMemberRename(_ message: MQTTMessage) -> Bool {
        guard let gateway = context.topics.parseGatewayLeaf(message.topic, Self.renamedLeaf) else { return false }
        // An event: one the broker kept (retained by some client) is no rename now; and only a member's counts.
        guard !message.retain, gateway != context.configuration.gateway,
            sessions.adoptions.peers.withLock({ $0.isMember(gateway) })
        else { return true }
        let request: GatewayRequest
        do throws(CommandError) {
            let payload = try CommandPayload(bytes: message.payload, sizeLimit: context.configuration.payloadSizeLimit)
            request = try GatewayRequest.parse(name: "rename", payload: payload)
        } catch {
            refuseMemberRename(from: gateway, error)
            return true
        }
        guard case .rename(let address, let alias) = request else { return true }
        context.background.spawn { [self] in
            do throws(CommandError) {
                _ = try await rename(address, to: alias, tellingFleet: false)
                context.logger.notice(
                    "device renamed by another gateway",
                    metadata: ["device": "\(address)", "to": "\(context.id(of: address))", "gateway": "\(gateway)"])
            } catch {
                refuseMemberRename(from: gateway, error)
            }
        }
        return true
    }

    private func refuseMemberRename(from gateway: String, _ error: CommandError) {
        context.warn(
            "fleet: a gateway's rename was not taken here: \(error.message)", kind: "fleet rename refused",
            metadata: ["gateway": "\(gateway)"])
    }
}
