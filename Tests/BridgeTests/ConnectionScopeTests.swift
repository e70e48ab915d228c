import Locks
import Testing

@testable import Bridge

struct ConnectionScopeTests {
    /// `close` returns only once every task has returned: what a cancelled task still does (a stream's last value,
    /// a write's error log) happens before the session forgets the connection, never after.
    @Test func closeWaitsUntilEveryTaskHasReturned() async {
        let scope = ConnectionScope()
        let finishedWork = Mutex(0)
        for key in ["stream", "timer", nil] {
            scope.spawn(key) {
                while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
                // Work after the cancellation, as a task finishing its current value does.
                await Task.yield()
                finishedWork.withLock { $0 += 1 }
            }
        }
        #expect(scope.count == 3)
        // What is tried here is the order, not the bound (the test below tries that): the in-memory run's first
        // seconds keep both of the pool's threads busy, and the tasks' turns after their cancellation once came
        // after the default five seconds had passed.
        #expect(await scope.close(within: .seconds(60)))
        #expect(finishedWork.withLock { $0 } == 3, "every task returned before close did")
        #expect(scope.count == 0 && !scope.isRunning("stream"))
    }

    /// A task under a key replaces the one running under it (cancelled); cancelling a key ends only its task.
    @Test func aKeyHoldsOneTask() async {
        let scope = ConnectionScope()
        let firstEnded = FirstAnswer<Bool>()
        scope.spawn("evergreen") {
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
            firstEnded.answer(true)
        }
        scope.repeating("evergreen", every: .seconds(60)) {}
        #expect(await firstEnded.value, "the replaced task was cancelled")
        scope.repeating("battery", every: .seconds(60)) {}
        scope.cancel("evergreen")
        #expect(!scope.isRunning("evergreen") && scope.isRunning("battery"))
        #expect(await scope.close())
    }

    /// A released stream goes on delivering what came before its stop and is awaited by the caller; a task that does
    /// not heed cancellation is left behind after the bound, and `close` says so.
    @Test func releaseLetsATaskFinishAndCloseIsBounded() async {
        let scope = ConnectionScope()
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        let delivered = Mutex<[[UInt8]]>([])
        scope.stream("fe0c", stream) { bytes in delivered.withLock { $0.append(bytes) } }
        continuation.yield([1])
        continuation.yield([2])
        let task = scope.release("fe0c")
        #expect(!scope.isRunning("fe0c"))
        continuation.finish()
        await task?.value
        #expect(delivered.withLock { $0 } == [[1], [2]])

        let release = FirstAnswer<Void>()
        scope.spawn { await release.value }  // ignores cancellation until released
        #expect(await scope.close(within: .milliseconds(50)) == false)
        release.answer(())
        #expect(await scope.close())
    }
}
