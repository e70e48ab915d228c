import DaemonLogging
import Locks
import Logging
import Testing

/// The copy of the log lines that goes to the gateway's log topic: its own level beside the journal's, the
/// loggers it never takes, and lines as safe as the journal's (escaped, bounded) and otherwise as they were logged.
@Suite struct LogTapTests {
    /// What the tap handed over, in order.
    final class Taken: Sendable {
        let records = Mutex<[LogRecord]>([])
        var all: [LogRecord] { records.withLock { $0 } }
        func append(_ record: LogRecord) { records.withLock { $0.append(record) } }
    }

    private static func tap(_ level: Logger.Level?, excluding: Set<String> = []) -> (LogTap, Taken) {
        let tap = LogTap(level: level, excluding: excluding)
        let taken = Taken()
        tap.attach(taken.append)
        return (tap, taken)
    }

    /// The tap gets lines from its level on, below the journal's level too; the journal still writes only its own.
    @Test func theTapHasALevelOfItsOwnBesideTheJournals() {
        let written = JournalLogHandlerTests.Written()
        let threshold = LogThreshold(.warning)
        let (tap, taken) = Self.tap(.info)
        let logger = Logger(label: "g") {
            JournalLogHandler(label: $0, threshold: threshold, tap: tap, write: written.append)
        }
        #expect(logger.logLevel == .info, "the lower of the two, so that the tap's lines reach the handler")
        logger.debug("below both")
        logger.info("for the tap only")
        logger.error("for both")
        #expect(written.all == ["<3>error g: for both\n"])
        #expect(taken.all.map(\.message) == ["for the tap only", "for both"])
        #expect(taken.all.map(\.level) == [.info, .error])
        #expect(taken.all.allSatisfy { $0.label == "g" })
    }

    /// Off takes nothing and leaves the handler at the journal's level; a level set at run time (SIGHUP) counts
    /// from the next line.
    @Test func offTakesNothingUntilALevelIsSet() {
        let threshold = LogThreshold(.info)
        let (tap, taken) = Self.tap(nil)
        let logger = Logger(label: "g") { ThresholdStreamLogHandler(label: $0, threshold: threshold, tap: tap) }
        #expect(logger.logLevel == .info)
        logger.critical("while off")
        tap.level = .debug
        #expect(logger.logLevel == .debug)
        logger.debug("once on")
        #expect(taken.all.map(\.message) == ["once on"])
    }

    /// The broker client's lines never reach the tap, and its logger stays at the journal's level (so that
    /// libmosquitto's debug log is not switched on for the tap's sake).
    @Test func anExcludedLoggerIsNeverTaken() {
        let threshold = LogThreshold(.info)
        let (tap, taken) = Self.tap(.debug, excluding: ["gatt2mqtt.mqtt"])
        let client = Logger(label: "gatt2mqtt.mqtt") {
            JournalLogHandler(label: $0, threshold: threshold, tap: tap) {
                _ in
            }
        }
        #expect(client.logLevel == .info)
        client.error("connection lost")
        #expect(taken.all.isEmpty)
    }

    /// As safe as a journal line: escaped the same way, in the message and in metadata, and otherwise as it was
    /// logged: nothing in it is replaced (a replaced secret would tell a guess that was right from one that was not).
    @Test func aRecordIsEscapedAndOtherwiseAsLogged() throws {
        let text = "pa55\\word\n"
        let (tap, taken) = Self.tap(.warning)
        tap.offer(
            level: .warning, label: "g", message: "line\none \u{1B}[2J with \(text)",
            metadata: ["value": "\(text)", "name\n": "a\tb", "list": ["x\(text)y"]])
        let record = try #require(taken.all.first)
        #expect(record.message == #"line\none \u{1B}[2J with pa55\\word\n"#)
        #expect(
            record.metadata == ["value": #"pa55\\word\n"#, #"name\n"#: #"a\tb"#, "list": #"["xpa55\\\\word\\ny"]"#])
    }

    /// A record is bounded: the message and each value cut (between scalars, marked), at most so many entries.
    @Test func aRecordIsBounded() throws {
        let (tap, taken) = Self.tap(.warning)
        var metadata: Logger.Metadata = [:]
        for index in 0..<40 { metadata["key\(100 + index)"] = "\(String(repeating: "é", count: 1000))" }
        tap.offer(level: .error, label: "g", message: String(repeating: "ü", count: 5000), metadata: metadata)
        let record = try #require(taken.all.first)
        #expect(record.message.utf8.count <= LogRecord.messageLimit && record.message.hasSuffix(LogRecord.cutMark))
        #expect(record.message.hasPrefix("üü"))
        #expect(record.metadata.count == LogRecord.entryLimit)
        #expect(record.metadata.keys.sorted().first == "key100", "the first in key order")
        #expect(record.metadata.values.allSatisfy { $0.utf8.count <= LogRecord.valueLimit && $0.hasSuffix("é…") })
    }

    /// Without a receiver nothing is kept; a detached tap takes nothing.
    @Test func withoutAReceiverNothingIsTaken() {
        let (tap, taken) = Self.tap(.warning)
        tap.detach()
        tap.offer(level: .error, label: "g", message: "nobody listens", metadata: [:])
        #expect(taken.all.isEmpty)
    }
}
