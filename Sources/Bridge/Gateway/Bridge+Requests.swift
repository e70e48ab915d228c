import BlueZ
import MQTT

/// The gateway's request API (Zigbee2MQTT style): `gatt2mqtt/<gateway>/request/<name>` answered on
/// `gatt2mqtt/<gateway>/response/<name>`, or on the request's MQTT 5 response topic.
extension Bridge {
    func handleRequest(_ message: MQTTMessage, name: String, bluez: any BluetoothCentral) {
        var transaction: JSONValue?
        do throws(CommandError) {
            let payload = try CommandPayload(bytes: message.payload, sizeLimit: configuration.payloadSizeLimit)
            transaction = payload.transaction
            let request = try GatewayRequest.parse(name: name, payload: payload)
            // Requests scan, pair, connect and forget (BlueZ calls that take seconds): a few a second, a few at a time,
            // whoever sends them. (`devices` and `scan` read the BlueZ object cache, not D-Bus, but are limited alike.)
            guard requestLimiter.withLock({ $0.admit("requests", at: .now) }) else {
                throw CommandError(.rateLimited, "more than \(Self.requestsPerSecond) requests per second")
            }
            guard requestsInFlight.take() else {
                throw CommandError(.rateLimited, "\(requestsInFlight.limit) requests are in progress already: wait for an answer")
            }
            // Pairing and connecting take seconds: never on the receive path.
            background.spawn { [self, transaction] in
                defer { requestsInFlight.give() }
                let result: Result<JSONValue?, CommandError>
                do throws(CommandError) {
                    result = .success(try await perform(request, bluez: bluez))
                } catch {
                    result = .failure(error)
                }
                respond(to: message, name: name, result: result, transaction: transaction)
            }
        } catch {
            respond(to: message, name: name, result: .failure(error), transaction: transaction)
        }
    }

    private func respond(to request: MQTTMessage, name: String, result: Result<JSONValue?, CommandError>, transaction: JSONValue?) {
        var members: [String: JSONValue] = ["request": .string(name)]
        switch result {
        case .success(let data):
            members["ok"] = .bool(true)
            if let data { members["data"] = data }
        case .failure(let error):
            members["ok"] = .bool(false)
            members["error"] = .object(["code": .string(error.code.rawValue), "message": .string(error.message)])
            warn("request refused", kind: "request refused (\(error.code.rawValue))",
                 metadata: ["request": "\(name)", "code": "\(error.code.rawValue)", "reason": "\(error.message)"])
        }
        if let transaction { members["transaction"] = transaction }
        let topic = publisher.answerTopic(for: request, otherwise: topics.response(name))
        do {
            try mqtt.publish(MQTTMessage(topic: topic, string: JSONValue.object(members).text, qos: .atLeastOnce, correlationData: request.correlationData))
        } catch {
            logger.error("cannot answer \(name): \(error)")
        }
    }

    private func perform(_ request: GatewayRequest, bluez: any BluetoothCentral) async throws(CommandError) -> JSONValue? {
        switch request {
        case .scan(let seconds):
            let generation = scanWindow.open(for: seconds)
            for device in await allDevices(bluez) { reportSighting(device) }
            background.spawn { await self.finishScan(generation, after: seconds) }
            return .object(["duration_s": .number(Double(seconds))])
        case .devices:
            return await inventory(bluez).json
        case .connect(let address, let family):
            let device = try await knownDevice(address, bluez)
            choices.withLock { choices in
                choices.requested[address] = family
                choices.released.remove(address)
            }
            guard let driver = driver(for: device) else {
                choices.withLock { _ = $0.requested.removeValue(forKey: address) }
                throw CommandError(.invalidValue, "\(address) belongs to no known family; name one with 'family'")
            }
            await considerDevice(device, bluez: bluez, force: true)
            return .object(["address": .string(address), "id": .string(id(of: address)), "family": .string(driver.family.rawValue)])
        case .disconnect(let address):
            let device = try await knownDevice(address, bluez)
            choices.withLock { choices in
                choices.requested.removeValue(forKey: address)
                choices.released.insert(address)
            }
            await stopSession(at: device.path, bluez: bluez, settled: true)
            let objects = await objects(of: address, bluez: bluez)
            for object in objects where object.hasLink {
                try? await bluez.disconnect(devicePath: object.path)
            }
            // The reply says the link is down, so a `connect` right after it starts from a clean state.
            for object in objects {
                _ = await bluez.waitUntilDisconnected(devicePath: object.path, timeout: .seconds(5))
            }
            await publishInventory(bluez)
            return nil
        case .pair(let address):
            let device = try await knownDevice(address, bluez)
            do {
                try await bluez.pair(devicePath: device.path)
                try await bluez.setTrusted(devicePath: device.path)
            } catch {
                // The device's users hear of it too, not only the requester.
                if let family = driver(for: device)?.family {
                    publisher.report(DeviceFailure(.pairingFailed, "\(error)"), family: family, id: id(of: address), logger: logger)
                }
                throw CommandError(.gattError, "pairing with \(address) failed: \(error)")
            }
            await publishInventory(bluez)
            return .object(["address": .string(address), "paired": .bool(true)])
        case .forget(let address):
            let device = try await knownDevice(address, bluez)
            choices.withLock { choices in
                choices.requested.removeValue(forKey: address)
                choices.recognised.removeValue(forKey: address)
            }
            sessions.forgetConnectionState(at: device.path)
            commandRouter.connectionChanged(device.path, to: .disconnected)
            await stopSession(at: device.path, bluez: bluez, settled: true)
            // A forgotten device leaves Home Assistant too.
            homeAssistant.withdraw(at: device.path)
            // Every adapter keeps its own object (and bond) of the device.
            for object in await objects(of: address, bluez: bluez) {
                do {
                    try await bluez.removeDevice(devicePath: object.path, adapterPath: object.adapterPath)
                } catch {
                    throw CommandError(.gattError, "cannot remove \(address): \(error)")
                }
            }
            await publishInventory(bluez)
            return nil
        }
    }

    private func knownDevice(_ address: String, _ bluez: any BluetoothCentral) async throws(CommandError) -> BlueZDevice {
        guard let device = await allDevices(bluez).first(where: { $0.address.uppercased() == address }) else {
            let adapters = configuration.adapters.joined(separator: ", ")
            throw CommandError(.unknownDevice, "\(address) has not been seen on \(adapters); scan first")
        }
        return device
    }

    // MARK: Inventory and scan results

    func inventory(_ bluez: any BluetoothCentral) async -> DeviceInventory {
        let devices = await allDevices(bluez)
        let (states, served, waiting) = sessions.inventoryView()
        let entries = devices.compactMap { device -> DeviceInventory.Entry? in
            guard let driver = driver(for: device) else { return nil }
            let serving = served.contains(device.path)
            let state = serving ? states[device.path]?.rawValue ?? "disconnected" : waiting.contains(device.address) ? "waiting_for_slot" : "idle"
            return DeviceInventory.Entry(
                address: device.address, id: id(of: device.address), family: driver.family, name: device.name ?? device.alias, state: state,
                rssi: device.rssi, paired: device.paired, adapter: serving ? adapterName(device.adapterPath) : nil)
        }
        return DeviceInventory(entries: entries)
    }

    /// Publishes the retained inventory when it changed.
    func publishInventory(_ bluez: any BluetoothCentral) async {
        let text = await inventory(bluez).retainedText
        let changed = choices.withLock { choices in
            defer { choices.lastInventory = text }
            return choices.lastInventory != text
        }
        if changed { publisher.publish(.state(topics.devices, text)) }
    }

    /// Ends a scan with `{"finished":true,…}` on `gatt2mqtt/<gateway>/scan`, unless a later request extended it.
    private func finishScan(_ generation: Int, after seconds: Int) async {
        try? await Task.sleep(for: .seconds(seconds))
        guard let seen = scanWindow.close(generation) else { return }
        let summary = JSONValue.object(["finished": .bool(true), "duration_s": .number(Double(seconds)), "seen": .number(Double(seen))])
        publisher.publish(Publication(topic: topics.scan, payload: summary.text, qos: 1))
    }

    /// During a scan, every device seen goes to `gatt2mqtt/<gateway>/scan`.
    func reportSighting(_ device: BlueZDevice) {
        guard adapterName(device.adapterPath) != nil, scanWindow.sighted(device.address) else { return }
        var members: [String: JSONValue] = [
            "address": .string(device.address), "paired": .bool(device.paired), "adapter": .string(adapterName(device.adapterPath) ?? ""),
        ]
        members["family"] = driver(for: device).map { .string($0.family.rawValue) } ?? .null
        if let name = device.name ?? device.alias { members["name"] = .string(name) }
        if let rssi = device.rssi { members["rssi"] = .number(Double(rssi)) }
        publisher.publish(Publication(topic: topics.scan, payload: JSONValue.object(members).text))
    }
}
