import DaemonLogging
import Glibc
import Locks
import Logging
import Testing

@Suite struct JournalLogHandlerTests {
    /// What a handler wrote, message by message.
    final class Written: Sendable {
        let texts = Mutex<[String]>([])
        var all: [String] { texts.withLock { $0 } }
        func append(_ text: String) { texts.withLock { $0.append(text) } }
    }

    @Test func eachLevelCarriesItsSyslogPriority() {
        let expected: [(Logger.Level, Int)] = [
            (.trace, 7), (.debug, 7), (.info, 6), (.notice, 5), (.warning, 4), (.error, 3), (.critical, 2),
        ]
        for (level, priority) in expected {
            #expect(
                JournalLogHandler.line(level: level, label: "gatt2mqtt", metadata: [:], message: "m").hasPrefix(
                    "<\(priority)>"))
        }
    }

    @Test func aLineHasNoTimestampAndSortedMetadata() {
        let text = JournalLogHandler.line(
            level: .warning, label: "gatt2mqtt", metadata: ["b": "2", "a": "1"], message: "broker not reachable")
        #expect(text == "<4>warning gatt2mqtt: a=1 b=2 broker not reachable\n")
    }

    /// journald files each line as an entry: a message of several lines, or a stranger's text with a newline in it,
    /// stays one entry, with the newline escaped.
    @Test func aMessageIsOneLineWhateverItHolds() {
        let text = JournalLogHandler.line(
            level: .error, label: "x", metadata: ["name\n<2>": "x\n<2>critical gatt2mqtt: fake"],
            message: "first\nsecond\u{1B}[2J\n")
        #expect(text == #"<3>error x: name\n<2>=x\n<2>critical gatt2mqtt: fake first\nsecond\u{1B}[2J\n"# + "\n")
    }

    @Test func loggersShareOneThresholdThatChangesAtRunTime() {
        let written = Written()
        let threshold = LogThreshold(.info)
        let one = Logger(label: "one") { JournalLogHandler(label: $0, threshold: threshold, write: written.append) }
        let two = Logger(label: "two") { JournalLogHandler(label: $0, threshold: threshold, write: written.append) }
        one.debug("hidden")
        two.info("shown")
        threshold.level = .debug
        one.debug("now shown")
        threshold.level = .error
        two.warning("hidden again")
        #expect(written.all == ["<6>info two: shown\n", "<7>debug one: now shown\n"])
    }

    @Test func theStreamHandlerFollowsTheThresholdToo() {
        let threshold = LogThreshold(.warning)
        var logger = Logger(label: "s") { ThresholdStreamLogHandler(label: $0, threshold: threshold) }
        #expect(logger.logLevel == .warning)
        threshold.level = .trace
        #expect(logger.logLevel == .trace)
        logger.logLevel = .error
        #expect(threshold.level == .error)
    }

    @Test func theJournalIsStandardErrorOnlyWhenItsDeviceAndInodeMatch() {
        var status = stat()
        #expect(fstat(STDERR_FILENO, &status) == 0)
        #expect(LogDestination.ofStandardError(journalStream: "\(status.st_dev):\(status.st_ino)") == .journal)
        #expect(LogDestination.ofStandardError(journalStream: "\(status.st_dev):\(status.st_ino + 1)") == .stream)
        #expect(LogDestination.ofStandardError(journalStream: "garbage") == .stream)
        #expect(LogDestination.ofStandardError(journalStream: nil) == .stream)
    }
}
