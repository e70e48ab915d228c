import Locks
import Testing

@testable import BlueZ

/// BlueZ reports a read's result as a Value change too; the router must not pass it on as a notification.
struct NotificationRouterTests {
    private let path = "/org/bluez/hci0/dev_1/service0001/char0002"

    private func collect(_ stream: AsyncStream<[UInt8]>, count: Int) async -> [[UInt8]] {
        var values: [[UInt8]] = []
        for await value in stream {
            values.append(value)
            if values.count == count { break }
        }
        return values
    }

    @Test func notificationsPassThroughInOrder() async {
        let router = NotificationRouter()
        let stream = router.open(path)
        #expect(router.deliver([1], to: path))
        #expect(router.deliver([2], to: path))
        #expect(!router.deliver([3], to: "/other"))
        #expect(await collect(stream, count: 2) == [[1], [2]])
    }

    @Test func theEchoOfAReadIsDroppedWhetherItComesBeforeOrAfterTheReply() async {
        let router = NotificationRouter()
        let stream = router.open(path)
        // Echo before the reply: held back while the read is in flight, then dropped.
        router.readStarted(path)
        router.deliver([0x50], to: path)
        router.deliver([0x07], to: path)  // a real notification that arrived meanwhile
        router.readFinished(path, bytes: [0x50])
        // Echo after the reply: dropped once.
        router.readStarted(path)
        router.readFinished(path, bytes: [0x60])
        router.deliver([0x60], to: path)
        // The same bytes again are a real notification.
        router.deliver([0x60], to: path)
        #expect(await collect(stream, count: 2) == [[0x07], [0x60]])
    }

    @Test func aNotificationThatOvertakesTheEchoLeavesItToBeDropped() async {
        let router = NotificationRouter()
        let stream = router.open(path)
        router.readStarted(path)
        router.readFinished(path, bytes: [0x60])
        router.deliver([0x07], to: path)  // a real notification, before the read's echo
        router.deliver([0x60], to: path)  // the echo: still dropped
        router.deliver([0x60], to: path)  // the same bytes again: a real notification
        #expect(await collect(stream, count: 2) == [[0x07], [0x60]])
    }

    @Test func aFailedReadReleasesWhatWasHeldBack() async {
        let router = NotificationRouter()
        let stream = router.open(path)
        router.readStarted(path)
        router.deliver([9], to: path)
        router.readFinished(path, bytes: nil)
        #expect(await collect(stream, count: 1) == [[9]])
    }

    @Test func closingUnderADeviceEndsItsStreams() async {
        let router = NotificationRouter()
        let stream = router.open(path)
        let other = router.open("/org/bluez/hci0/dev_2/char0003")
        router.close(under: "/org/bluez/hci0/dev_1")
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == nil)
        #expect(router.deliver([1], to: "/org/bluez/hci0/dev_2/char0003"))
        var otherIterator = other.makeAsyncIterator()
        #expect(await otherIterator.next() == [1])
    }

    @Test func closingAStreamStillDeliversWhatItHoldsButNotANewerStream() async {
        let router = NotificationRouter()
        let first = router.open(path)
        router.deliver([1], to: path)
        let generation = router.generation(of: path)
        router.deliver([2], to: path)
        router.close(path, generation: generation!)
        #expect(!router.deliver([3], to: path))
        #expect(await collect(first, count: 3) == [[1], [2]])

        // A stop that finishes after a new subscription leaves the new stream open.
        let stale = router.generation(of: path)
        #expect(stale == nil)
        let old = router.open(path)
        let oldGeneration = router.generation(of: path)!
        let new = router.open(path)
        router.close(path, generation: oldGeneration)
        #expect(router.deliver([4], to: path))
        #expect(await collect(old, count: 1) == [])
        #expect(await collect(new, count: 1) == [[4]])
    }

    /// A lane takes what it wants on the delivering thread; the rest goes to the stream, in order, and a
    /// read's echo reaches neither.
    @Test func aLaneTakesValuesAndTheStreamGetsWhatItDeclines() async {
        let router = NotificationRouter()
        let taken = Mutex<[[UInt8]]>([])
        let stream = router.open(path) { bytes in
            guard bytes.first == 0xF0 else { return false }
            taken.withLock { $0.append(bytes) }
            return true
        }
        router.deliver([0xF0, 1], to: path)
        router.deliver([0x01], to: path)
        router.readStarted(path)
        router.deliver([0xF0, 2], to: path)  // held back during the read, then handed to the lane
        router.deliver([0x50], to: path)  // the read's echo
        router.readFinished(path, bytes: [0x50])
        router.deliver([0x02], to: path)
        #expect(taken.withLock { $0 } == [[0xF0, 1], [0xF0, 2]])
        #expect(await collect(stream, count: 2) == [[0x01], [0x02]])
    }

    @Test func valuesBeyondTheBufferAreDroppedOldestFirstAndCounted() async {
        let router = NotificationRouter()
        let stream = router.open(path)
        for value in 0..<1030 { router.deliver([UInt8(value % 256), UInt8(value / 256)], to: path) }
        #expect(router.droppedCount == 6)
        let first = await collect(stream, count: 1)
        #expect(first == [[6, 0]])
    }
}
