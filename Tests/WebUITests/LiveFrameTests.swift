import Bridge
import Foundation
import Testing

@testable import WebUI

struct LiveFrameTests {
    private func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func helloCarriesEachFamilysCommandsCardsAndTheRequests() throws {
        let cards: [DeviceFamily: LivePageCard] = [
            .belt: LivePageCard(
                label: "Belt", fields: [.init("heading", "Heading", unit: "°"), .init("mode", "Mode")],
                stream: ("heading", 0...360, true)),
            .grip: LivePageCard(label: "Grip", fields: [.init("event", "Last event")], wide: true),
        ]
        let hello = try object(
            LiveFrame.hello(
                baseTopic: "site-a", catalogue: [.belt: [CommandExample(command: "mode", payload: "app")], .grip: []],
                cards: cards))
        let families = try #require(hello["families"] as? [String: [String: Any]])
        #expect(families["belt"]?["label"] as? String == "Belt")
        #expect(families["belt"]?["fields"] as? [[String]] == [["heading", "Heading", "°"], ["mode", "Mode"]])
        #expect(families["belt"]?["stream"] as? String == "heading")
        #expect(families["belt"]?["range"] as? [Double] == [0, 360])
        #expect(families["belt"]?["wrap"] as? Bool == true)
        #expect(families["grip"]?["wide"] as? Bool == true)
        #expect(families["grip"]?["stream"] == nil)
        #expect(hello["type"] as? String == "hello")
        #expect(hello["version"] as? String == Gatt2MQTTVersion.current)
        #expect(hello["base_topic"] as? String == "site-a")
        let catalogue = try #require(hello["catalogue"] as? [String: [[String: String]]])
        #expect(catalogue["belt"] == [["command": "mode", "example": "app"]])
        #expect(catalogue["grip"] == [])
        let requests = try #require(hello["requests"] as? [[String: Any]])
        #expect(requests.compactMap { $0["request"] as? String } == PageRequest.requestNames)
        #expect(requests.first { $0["request"] as? String == "pair" }?["needs_address"] as? Bool == true)
        #expect(requests.first { $0["request"] as? String == "scan" }?["needs_address"] as? Bool == false)
        // The gateway's own requests take no address, and come with a payload that works.
        let options = try #require(requests.first { $0["request"] as? String == "options" })
        #expect(options["needs_address"] as? Bool == false)
        #expect(options["example"] as? String == #"{"options":{"log_level":"debug"}}"#)
        #expect(requests.first { $0["request"] as? String == "restart" }?["needs_address"] as? Bool == false)
    }

    @Test func messagesKeepPayloadsVerbatimEvenWithQuotesAndSlashes() throws {
        let frame = try object(
            LiveFrame.message(.init(topic: "belt/abc/info", payload: #"{"name":"a/\"b\""}"#, retained: true)))
        #expect(frame["topic"] as? String == "belt/abc/info")
        #expect(frame["payload"] as? String == #"{"name":"a/\"b\""}"#)
        #expect(frame["retained"] as? Bool == true)
    }

    @Test func repliesAndErrorsCarryThePagesID() throws {
        let reply = try object(LiveFrame.reply(id: 4, topic: "belt/abc/cmd/mode", payload: #"{"ok":true}"#))
        #expect(reply["id"] as? Int == 4)
        #expect(reply["type"] as? String == "reply")
        let error = try object(LiveFrame.error(id: nil, message: "bad"))
        #expect(error["id"] == nil)
        #expect(error["message"] as? String == "bad")
    }
}
