#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// A restore (`request/restore`, `gatt2mqtt --restore`) is staged in the state directory as `restore.json` and
/// applied by the daemon when it next starts, before anything reads the state. A running gateway writes its files as
/// devices are adopted and identities found; a restore written under it could be undone by its next write, or mixed
/// with it. At start nothing else writes them, and a restore cut short (a power cut between two files) is applied
/// again at the following start, since the staged file goes only once every file holds what it says.
public enum PendingRestore {
    /// Checks nothing beyond what `StateBackup.parse` did: the daemon checks the options first, as the file's.
    public static func stage(_ backup: StateBackup, in stateDirectory: String) throws(StateBackup.Failure) {
        let file = stateDirectory + "/" + StateFiles.pendingRestore
        do throws(DurableFile.Failure) {
            try DurableFile.createFolder(of: file)
            try DurableFile.replace(file, with: Array((backup.json.text + "\n").utf8))
        } catch {
            throw StateBackup.Failure(description: error.description)
        }
    }

    /// The staged restore, if there is one, read and checked; nil when none is staged.
    public static func staged(in stateDirectory: String, families: [DeviceFamily] = DeviceFamily.allCases)
        throws(StateBackup.Failure)
        -> StateBackup?
    {
        let file = stateDirectory + "/" + StateFiles.pendingRestore
        guard let bytes = try StateBackup.contents(of: file, limit: StateBackup.sizeLimit) else { return nil }
        return try StateBackup.parse(bytes, families: families)
    }

    /// Makes the state directory hold what `backup` says: the adoptions, the identities and the options it has (an
    /// empty list or object where it has none), and its fleet incarnation where that is above the one kept (an
    /// incarnation must never go back: the fleet would ignore the gateway's claims). Each file is replaced whole; when
    /// one cannot be, those already replaced get their earlier contents back and nothing has changed. Then the staged
    /// file goes.
    /// (`replace` writes a file whole: `DurableFile.replace`, or a test's that fails where it is told to.)
    public static func apply(
        _ backup: StateBackup, to stateDirectory: String, incarnationFile: String,
        replace: (String, [UInt8]) throws(DurableFile.Failure) -> Void = DurableFile.replace
    ) throws(StateBackup.Failure) {
        var writes: [(file: String, bytes: [UInt8])] = [
            (stateDirectory + "/" + StateFiles.adoptions, Array(backup.adopted.json.text.utf8)),
            (
                stateDirectory + "/" + StateFiles.identities,
                Array(IdentityLedger.json(backup.identities).text.utf8)
            ),
            (stateDirectory + "/" + StateFiles.options, Array((JSONValue.object(backup.options).text + "\n").utf8)),
        ]
        if let restored = backup.fleetIncarnation {
            let kept: UInt64
            do {
                kept = try Incarnation.read(incarnationFile)
            } catch {
                throw StateBackup.Failure(description: "\(error)")
            }
            if restored > kept { writes.append((incarnationFile, Array("\(restored)\n".utf8))) }
        }
        // What each file held before (nil: it was not there), for putting back.
        var before: [(file: String, bytes: [UInt8]?)] = []
        for write in writes {
            before.append((write.file, try StateBackup.contents(of: write.file, limit: StateBackup.sizeLimit)))
        }
        for (index, write) in writes.enumerated() {
            do throws(DurableFile.Failure) {
                try DurableFile.createFolder(of: write.file)
                try replace(write.file, write.bytes)
            } catch {
                for earlier in before.prefix(index) {
                    if let bytes = earlier.bytes {
                        try? DurableFile.replace(earlier.file, with: bytes)
                    } else {
                        unlink(earlier.file)
                    }
                }
                throw StateBackup.Failure(description: "nothing restored: \(error.description)")
            }
        }
        let staged = stateDirectory + "/" + StateFiles.pendingRestore
        guard unlink(staged) == 0 || errno == ENOENT else {
            throw StateBackup.Failure(
                description:
                    "restored, but cannot remove \(staged) (\(DurableFile.errorText())): it would be applied again")
        }
    }
}
