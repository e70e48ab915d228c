import Bridge
import DaemonConfiguration
import DaemonLogging
import Logging

/// The state directory offline (`gatt2mqtt --backup FILE`, `gatt2mqtt --restore FILE`) and the restore staged for
/// the start (`PendingRestore`), which the daemon applies before anything reads the state.
enum StateCommands {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Writes the backup to `file` (a new file is the owner's alone: it says which devices the gateway serves), or to
    /// standard output for `-`.
    static func backup(to file: String, _ loaded: LoadedConfiguration) throws(Failure) {
        let folder = try stateDirectory(loaded)
        let backup: StateBackup
        do throws(StateBackup.Failure) {
            backup = try StateBackup.read(
                stateDirectory: folder,
                incarnationFile: StateBackup.incarnationFile(of: loaded.bridge, stateDirectory: folder),
                gateway: loaded.bridge.gateway, families: DeviceFamily.served(by: loaded.bridge))
        } catch {
            throw Failure(description: "cannot back up \(folder): \(error.description)")
        }
        let text = backup.json.text + "\n"
        if file == "-" {
            print(text, terminator: "")
        } else {
            do throws(DurableFile.Failure) {
                try DurableFile.replace(file, with: Array(text.utf8))
            } catch {
                throw Failure(description: error.description)
            }
        }
        LastWords.write("gatt2mqtt: backed up \(folder) (\(backup.summary))\(file == "-" ? "" : " to \(file)")")
    }

    /// Checks the backup in `file` whole, its options as the file's, and stages it for the gateway's next start.
    static func restore(from file: String, _ loaded: LoadedConfiguration) throws(Failure) {
        let folder = try stateDirectory(loaded)
        let bytes: [UInt8]?
        do throws(DurableFile.Failure) {
            bytes = try DurableFile.read(file, limit: StateBackup.sizeLimit)
        } catch {
            throw Failure(description: error.description)
        }
        guard let bytes else { throw Failure(description: "\(file): no such file") }
        let backup: StateBackup
        do throws(StateBackup.Failure) {
            backup = try StateBackup.parse(bytes, families: DeviceFamily.served(by: loaded.bridge))
            try check(backup, loaded)
            try PendingRestore.stage(backup, in: folder)
        } catch {
            throw Failure(description: "\(file) is not restored: \(error.description)")
        }
        LastWords.write(
            "gatt2mqtt: staged in \(folder) (\(backup.summary)); the gateway restores it when it next starts "
                + "(systemctl restart gatt2mqtt)")
    }

    /// Applies a staged restore before the gateway starts, and returns the configuration as it then is (the options
    /// may have changed). A staged file that cannot be read or checked is set aside and the gateway starts on the state
    /// it has; one that cannot be written is kept, to be tried again at the next start.
    static func applyStagedRestore(
        _ loaded: LoadedConfiguration, commandLine: CommandLineSettings, logger: Logger
    ) throws -> LoadedConfiguration {
        guard let folder = loaded.bridge.stateDirectory else { return loaded }
        let staged: StateBackup
        do throws(StateBackup.Failure) {
            guard let found = try PendingRestore.staged(in: folder, families: DeviceFamily.served(by: loaded.bridge))
            else { return loaded }
            try check(found, loaded)
            staged = found
        } catch {
            let file = folder + "/" + StateFiles.pendingRestore
            let aside = (try? DurableFile.setAside(file)) ?? "(cannot set it aside)"
            logger.error(
                "the staged restore is not applied",
                metadata: ["reason": "\(error.description)", "set_aside_as": "\(aside)"])
            return loaded
        }
        do throws(StateBackup.Failure) {
            try PendingRestore.apply(
                staged, to: folder,
                incarnationFile: StateBackup.incarnationFile(of: loaded.bridge, stateDirectory: folder))
        } catch {
            logger.error(
                "the staged restore is not applied; tried again at the next start",
                metadata: ["reason": "\(error.description)"])
            return loaded
        }
        logger.notice("state restored from a backup", metadata: ["holds": "\(staged.summary)"])
        return try ConfigurationLoader.load(commandLine: commandLine)
    }

    private static func check(_ backup: StateBackup, _ loaded: LoadedConfiguration) throws(StateBackup.Failure) {
        do throws(ConfigurationError) {
            try loaded.checkingRestored(backup.options)
        } catch {
            throw StateBackup.Failure(description: "its options: \(error.description)")
        }
    }

    private static func stateDirectory(_ loaded: LoadedConfiguration) throws(Failure) -> String {
        guard let folder = loaded.bridge.stateDirectory else {
            throw Failure(description: "no state directory (state_directory, or systemd's StateDirectory) is set")
        }
        return folder
    }
}
