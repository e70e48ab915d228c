import Bridge
import Testing

@testable import WebUI

/// A page's frame is checked before anything reaches the broker: only a known command of a known family
/// for a well-formed device, or a known gateway request.
struct PageRequestTests {
    static let catalogue: [DeviceFamily: [CommandExample]] = [
        .belt: [CommandExample(command: "vibrate", payload: "{}"), CommandExample(command: "mode", payload: "app")],
        .grip: [],
    ]

    private func decode(_ frame: String) throws(PageRequestError) -> PageRequest {
        try PageRequest(frame: frame, catalogue: Self.catalogue)
    }

    @Test func aCommandGoesToItsDevicesCommandTopicUnderTheBaseTopic() throws {
        let request = try decode(
            #"{"type":"command","id":7,"device":"belt/001122334451","command":"vibrate","payload":"{\"direction\":90}"}"#
        )
        #expect(request.id == 7)
        #expect(request.payload == #"{"direction":90}"#)
        #expect(request.topic(in: TopicMap(gateway: "page", baseTopic: "")) == "belt/001122334451/cmd/vibrate")
        #expect(
            request.topic(in: TopicMap(gateway: "page", baseTopic: "site-a")) == "site-a/belt/001122334451/cmd/vibrate")
        #expect(request.plainReplyTopic(in: TopicMap(gateway: "page", baseTopic: "")) == "belt/001122334451/reply")
    }

    @Test func aRequestGoesToTheNamedGateway() throws {
        let request = try decode(
            #"{"type":"request","id":8,"gateway":"demo","request":"scan","payload":"{\"duration_s\":10}"}"#)
        #expect(request.topic(in: TopicMap(gateway: "page", baseTopic: "")) == "gatt2mqtt/demo/request/scan")
        #expect(
            request.plainReplyTopic(in: TopicMap(gateway: "page", baseTopic: "b")) == "b/gatt2mqtt/demo/response/scan")
        #expect(request.name == "scan")
    }

    @Test(
        arguments: [
            ("not json", nil, "JSON object"),
            (#"[1]"#, nil, "JSON object"),
            (#"{"type":"command"}"#, nil, "'id'"),
            (#"{"type":"command","id":1}"#, 1, "'payload'"),
            (#"{"type":"command","id":1,"payload":7}"#, 1, "'payload'"),
            (#"{"type":"publish","id":2,"payload":""}"#, 2, "'type'"),
            (#"{"type":"command","id":3,"device":"lamp/1","command":"on","payload":""}"#, 3, "'device'"),
            (#"{"type":"command","id":4,"device":"belt/+","command":"mode","payload":""}"#, 4, "not a device id"),
            (#"{"type":"command","id":5,"device":"belt/a/b","command":"mode","payload":""}"#, 5, "not a device id"),
            (#"{"type":"command","id":6,"device":"belt/abc","command":"cmd/#","payload":""}"#, 6, "no belt command"),
            (#"{"type":"command","id":7,"device":"grip/abc","command":"shutter","payload":""}"#, 7, "known: none"),
            (#"{"type":"request","id":8,"gateway":"de/mo","request":"scan","payload":""}"#, 8, "'gateway'"),
            (#"{"type":"request","id":9,"gateway":"demo","request":"reboot","payload":""}"#, 9, "no request 'reboot'"),
        ] as [(String, Int?, String)])
    func badFramesAreRefusedWithTheirIdAndReason(_ frame: String, _ id: Int?, _ reason: String) {
        do {
            _ = try decode(frame)
            Issue.record("accepted \(frame)")
        } catch {
            #expect(error.id == id)
            #expect(error.message.contains(reason), "\(error.message)")
        }
    }

    @Test func aPayloadOver16KiBIsRefused() {
        let big = String(repeating: "x", count: 16 * 1024 + 1)
        #expect(throws: PageRequestError.self) {
            try decode(#"{"type":"command","id":1,"device":"belt/abc","command":"mode","payload":"\#(big)"}"#)
        }
    }
}
