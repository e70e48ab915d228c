import Testing

@testable import Bridge

struct OwnedTasksTests {
    @Test func cancelAllEndsWhatIsStillRunning() async {
        let tasks = OwnedTasks()
        let ended = FirstAnswer<Bool>()
        tasks.spawn {
            // Runs until cancelled, then says how it ended.
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(10)) }
            ended.answer(Task.isCancelled)
        }
        #expect(tasks.count == 1)
        tasks.cancelAll()
        #expect(await ended.value)
        #expect(tasks.count == 0)
    }

}
