import Foundation
import TestSupport

extension HomeAssistantInstance {
    /// Presses the belt's compass button (short) until `automation`, a device trigger on it, fires; whether it did.
    /// Home Assistant subscribes to a trigger's topic a moment after it (re)loads it and says not when: a press that
    /// came too early is pressed again, up to five times. Only a firing after the first press counts.
    func compassPressFires(_ automation: String, belt: ManagedProcess, recorder: TopicRecorder, id: String) async throws
        -> Bool
    {
        let since = ISO8601DateFormatter().string(from: Date())
        for _ in 1...5 {
            let pressed = recorder.mark
            try belt.send(line: "button compass short")
            try await recorder.waitFor("belt/\(id)/button", after: pressed) {
                $0.payloadString?.contains(#""button":"compass""#) == true
            }
            let fired = try? await control(
                ["wait-triggered", "--automation", automation, "--after", since, "--timeout", "6"],
                timeout: .seconds(15))
            if fired != nil { return true }
        }
        return false
    }
}
