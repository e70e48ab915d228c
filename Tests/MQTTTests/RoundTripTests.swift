import Foundation
import MQTT
import TestSupport
import Testing

@Suite(.serialized) struct RoundTripTests {
    @Test(arguments: [MQTTProtocolVersion.v5, .v311])
    func publishSubscribeRoundTrip(version: MQTTProtocolVersion) async throws {
        try await withBroker { broker in
            let subscriber = try await broker.connectedClient("sub", version: version)
            let publisher = try await broker.connectedClient("pub", version: version)
            try await broker.subscribe(subscriber, to: "devices/+/+", qos: .exactlyOnce)

            for qos in MQTTQoS.allCases {
                try publisher.publish(MQTTMessage(topic: "devices/belt/state", string: "qos\(qos.rawValue)", qos: qos))
                let received = try await nextMessage(from: subscriber)
                #expect(received.topic == "devices/belt/state")
                #expect(received.payloadString == "qos\(qos.rawValue)")
                #expect(received.qos == qos)
                #expect(received.retain == false)
            }
            // Binary payloads survive unchanged, zero bytes included.
            let bytes: [UInt8] = [0, 1, 2, 0xff, 0, 0x80]
            try publisher.publish(MQTTMessage(topic: "devices/raw/state", payload: bytes, qos: .atLeastOnce))
            #expect(try await nextMessage(from: subscriber).payload == bytes)

            // A stream's value, published without a message made of it, arrives as the same message would.
            for qos in MQTTQoS.allCases {
                try publisher.publishValue(topic: "devices/belt/heading", payload: "27\(qos.rawValue)°", qos: qos)
                let received = try await nextMessage(from: subscriber)
                #expect(received.topic == "devices/belt/heading")
                #expect(received.payloadString == "27\(qos.rawValue)°")
                #expect(received.qos == qos)
                #expect(received.retain == false)
            }

            #expect(publisher.statistics.messagesPublished == 7)
            #expect(subscriber.statistics.messagesReceived == 7)
            await publisher.stop()
            await subscriber.stop()
        }
    }

    @Test func retainedMessageReachesLateSubscribers() async throws {
        try await withBroker { broker in
            let publisher = try await broker.connectedClient("pub")
            let log = try broker.log
            let mark = log.lineCount
            try publisher.publish(
                MQTTMessage(topic: "devices/belt/mode", string: "navigation", qos: .atLeastOnce, retain: true))
            try await log.waitForLine(containing: "Sending PUBACK to pub", after: mark)

            // Our own late subscriber sees it flagged as retained…
            let late = try await broker.connectedClient("late")
            try late.subscribe("devices/belt/mode")
            let received = try await nextMessage(from: late)
            #expect(received.payloadString == "navigation")
            #expect(received.retain)

            // …and so does mosquitto's own client.
            let sub = try ManagedProcess.launch(
                "mosquitto_sub",
                arguments: [
                    "-h", "127.0.0.1", "-p", "\(broker.port)", "-t", "devices/belt/mode", "-C", "1", "-F", "%r %t %p",
                ])
            #expect(try await sub.waitForExit() == .exited(0))
            #expect(sub.lines.map(\.text) == ["1 devices/belt/mode navigation"])

            await late.stop()
            await publisher.stop()
        }
    }

    @Test func mqtt5PropertiesRoundTrip() async throws {
        try await withBroker { broker in
            let responder = try await broker.connectedClient("responder")
            let requester = try await broker.connectedClient("requester")
            try await broker.subscribe(responder, to: "requests/#")

            let request = MQTTMessage(
                topic: "requests/belt/vibrate", string: "{\"intensity\":50}", qos: .atLeastOnce,
                responseTopic: "responses/requester", correlationData: [0xde, 0xad, 0x00, 0xbe, 0xef],
                messageExpiry: 120,
                userProperties: [MQTTUserProperty("source", "test"), MQTTUserProperty("source", "again")])
            try requester.publish(request)

            let received = try await nextMessage(from: responder)
            #expect(received.payloadString == request.payloadString)
            #expect(received.responseTopic == "responses/requester")
            #expect(received.correlationData == [0xde, 0xad, 0x00, 0xbe, 0xef])
            // The broker forwards what is left of the expiry interval.
            let expiry = try #require(received.messageExpiry)
            #expect(expiry > 0 && expiry <= 120)
            #expect(
                received.userProperties == [MQTTUserProperty("source", "test"), MQTTUserProperty("source", "again")])

            await requester.stop()
            await responder.stop()
        }
    }

    @Test func decodesPropertiesSentByMosquittoPub() async throws {
        try await withBroker { broker in
            let client = try await broker.connectedClient("decoder")
            try await broker.subscribe(client, to: "requests/#")
            try await broker.mosquittoPub([
                "-V", "mqttv5", "-q", "1", "-t", "requests/x", "-m", "ping",
                "-D", "publish", "response-topic", "responses/x",
                "-D", "publish", "correlation-data", "abc",
                "-D", "publish", "message-expiry-interval", "60",
                "-D", "publish", "user-property", "k", "v1",
                "-D", "publish", "user-property", "k", "v2",
            ])
            let received = try await nextMessage(from: client)
            #expect(received.topic == "requests/x")
            #expect(received.payloadString == "ping")
            #expect(received.responseTopic == "responses/x")
            #expect(received.correlationData == Array("abc".utf8))
            #expect((1...60).contains(received.messageExpiry ?? 0))
            #expect(received.userProperties == [MQTTUserProperty("k", "v1"), MQTTUserProperty("k", "v2")])
            await client.stop()
        }
    }

    @Test func mqtt311DropsPropertiesInsteadOfFailing() async throws {
        try await withBroker { broker in
            let subscriber = try await broker.connectedClient("sub5")
            let publisher = try await broker.connectedClient("pub311", version: .v311)
            try await broker.subscribe(subscriber, to: "t")
            try publisher.publish(
                MQTTMessage(
                    topic: "t", string: "plain", qos: .atLeastOnce, responseTopic: "r", correlationData: [1],
                    messageExpiry: 5, userProperties: [MQTTUserProperty("a", "b")]))
            let received = try await nextMessage(from: subscriber)
            #expect(received.payloadString == "plain")
            #expect(received.responseTopic == nil)
            #expect(received.correlationData == nil)
            #expect(received.messageExpiry == nil)
            #expect(received.userProperties.isEmpty)
            await publisher.stop()
            await subscriber.stop()
        }
    }

    @Test func unsubscribeStopsDelivery() async throws {
        try await withBroker { broker in
            let client = try await broker.connectedClient("client")
            try await broker.subscribe(client, to: "a")
            try await broker.subscribe(client, to: "b")
            let log = try broker.log
            let mark = log.lineCount
            try client.unsubscribe("a")
            try await log.waitForLine(containing: "Sending UNSUBACK to client", after: mark)
            try await broker.mosquittoPub(["-t", "a", "-m", "ignored", "-q", "1"])
            try await broker.mosquittoPub(["-t", "b", "-m", "sentinel", "-q", "1"])
            let seen = try await messages(from: client) { $0.topic == "b" }
            #expect(seen.map(\.payloadString) == ["sentinel"])
            await client.stop()
        }
    }

    @Test func invalidTopicsAreRejected() async throws {
        try await withBroker { broker in
            let client = try await broker.connectedClient("client")
            #expect(throws: MQTTError.self) { try client.subscribe("a/#/b") }
            #expect(throws: MQTTError.self) { try client.publish(MQTTMessage(topic: "a/+", string: "x")) }
            #expect(client.isConnected)
            await client.stop()
        }
    }

    @Test func fullIncomingBufferDropsOldestAndCounts() async throws {
        try await withBroker { broker in
            let client = try await broker.connectedClient("slow") { $0.incomingBufferSize = 2 }
            try await broker.subscribe(client, to: "burst")
            let log = try broker.log
            let mark = log.lineCount
            for index in 1...5 {
                try await broker.mosquittoPub(["-t", "burst", "-m", "\(index)", "-q", "1"])
            }
            // The client acknowledges each message as it copies it out, before anyone consumes.
            try await log.waitForLine(containing: "Received PUBACK from slow (Mid: 5", after: mark)
            #expect(client.statistics.messagesReceived == 5)
            #expect(client.statistics.droppedMessages == 3)
            let kept = try await messages(from: client) { $0.payloadString == "5" }
            #expect(kept.map(\.payloadString) == ["4", "5"])
            await client.stop()
        }
    }

    /// A payload beyond `maximumPacketSize` never reaches the consumer: with MQTT 5 the broker does not send it
    /// (Maximum Packet Size in CONNECT), with 3.1.1 the client drops it unread and counts it. The small message sent
    /// after it is the barrier: by its arrival the large one has been handled.
    @Test(arguments: [MQTTProtocolVersion.v5, .v311])
    func messagesBeyondTheMaximumPacketSizeAreNeverDelivered(version: MQTTProtocolVersion) async throws {
        try await withBroker { broker in
            let client = try await broker.connectedClient("small", version: version) { $0.maximumPacketSize = 1000 }
            try await broker.subscribe(client, to: "sized")
            try await broker.mosquittoPub(["-t", "sized", "-m", String(repeating: "x", count: 5000), "-q", "1"])
            try await broker.mosquittoPub(["-t", "sized", "-m", "small", "-q", "1"])
            let seen = try await messages(from: client) { $0.payloadString == "small" }
            #expect(seen.map(\.payload.count) == [5])
            #expect(client.statistics.oversizedMessages == (version == .v5 ? 0 : 1), "MQTT 5: the broker kept it back")
            await client.stop()
        }
    }

    /// The bytes waiting for a consumer are bounded as well as their number: with room for nine messages of 1 005
    /// bytes (topic and payload), the tenth and later are dropped and counted as they arrive, the small one after
    /// them still fits, and what the consumer takes makes room again.
    @Test func messagesBeyondTheWaitingBytesAreDroppedUntilTheConsumerTakesSome() async throws {
        try await withBroker { broker in
            let client = try await broker.connectedClient("bytes") { $0.incomingBufferBytes = 10_000 }
            try await broker.subscribe(client, to: "sized")
            let publisher = try await broker.connectedClient("bytes-publisher")
            let payload = String(repeating: "x", count: 1000)
            for _ in 0..<20 { try publisher.publish(MQTTMessage(topic: "sized", string: payload, qos: .atLeastOnce)) }
            try publisher.publish(MQTTMessage(topic: "sized", string: "small", qos: .atLeastOnce))
            try await waitUntil(timeout: .seconds(10)) { client.statistics.messagesReceived >= 21 }
            let seen = try await messages(from: client) { $0.payloadString == "small" }
            #expect(seen.map(\.payload.count) == Array(repeating: 1000, count: 9) + [5])
            #expect(client.statistics.droppedMessages == 11)
            try publisher.publish(MQTTMessage(topic: "sized", string: payload, qos: .atLeastOnce))
            #expect(try await nextMessage(from: client).payload.count == 1000)
            await publisher.stop()
            await client.stop()
        }
    }

    /// Over plain TCP the publishing thread writes its packets itself, and libmosquitto's wake-up socket
    /// pair, written on every publish, is never read: once it is full its writes fail, and publishing
    /// must go on regardless (the pair holds a few hundred thousand bytes).
    @Test func publishingFarBeyondTheWakeUpPairNeverBlocks() async throws {
        try await withBroker { broker in
            let subscriber = try await broker.connectedClient("sub")
            let publisher = try await broker.connectedClient("pub")
            try await broker.subscribe(subscriber, to: "flood/end")
            let count = 400_000
            for index in 0..<count {
                try publisher.publish(MQTTMessage(topic: "flood/\(index % 16)", string: "\(index)", qos: .atMostOnce))
            }
            try publisher.publish(MQTTMessage(topic: "flood/end", string: "done", qos: .atLeastOnce))
            // The broker works through 400 000 messages first: on a loaded 2-core machine that takes seconds.
            #expect(try await nextMessage(from: subscriber, timeout: .seconds(60)).payloadString == "done")
            #expect(publisher.statistics.messagesPublished == count + 1)
            await publisher.stop()
            await subscriber.stop()
        }
    }
}
