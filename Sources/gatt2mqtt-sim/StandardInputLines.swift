import Foundation

/// Lines from standard input as an async sequence. A dedicated thread does the blocking reads, so no
/// cooperative-pool thread is held; end of input just ends the sequence (the simulator keeps running).
enum StandardInputLines {
    static func stream() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let thread = Thread {
            while let line = readLine() { continuation.yield(line) }
            continuation.finish()
        }
        thread.start()
        return stream
    }
}
