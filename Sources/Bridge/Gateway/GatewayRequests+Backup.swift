/// `request/backup` and `request/restore`: the state directory as one document, and that document put back.
extension GatewayRequests {
    /// The state directory as it is now (`StateBackup`).
    func backup() throws(CommandError) -> JSONValue {
        let folder = try stateDirectory()
        do throws(StateBackup.Failure) {
            let backup = try StateBackup.read(
                stateDirectory: folder, incarnationFile: incarnationFile(in: folder),
                gateway: context.configuration.gateway, families: context.topics.families)
            context.logger.notice("state backed up over MQTT", metadata: ["holds": "\(backup.summary)"])
            return backup.json
        } catch {
            throw CommandError(.invalidState, "cannot back up \(folder): \(error.description)")
        }
    }

    /// Checks the backup's options as the daemon checks the file's, stages it (`PendingRestore`) and answers; the
    /// restart that follows the answer applies it before anything reads the state. Not held off as `restart` is: it
    /// is privileged, never retained, and a gateway just replaced is where it is needed first.
    func restore(_ backup: StateBackup) throws(CommandError) -> JSONValue {
        let folder = try stateDirectory()
        guard let options else {
            throw CommandError(.invalidState, "this gateway keeps no options (it was not started by the daemon)")
        }
        try options.checkRestored(backup.options)
        do throws(StateBackup.Failure) {
            try PendingRestore.stage(backup, in: folder)
        } catch {
            throw CommandError(.invalidState, "cannot stage the restore: \(error.description)")
        }
        context.logger.notice(
            "restore staged over MQTT; restarting to apply it", metadata: ["holds": "\(backup.summary)"])
        return .object(["restoring": .string(backup.summary), "restarting": .bool(true)])
    }

    private func stateDirectory() throws(CommandError) -> String {
        guard let folder = context.configuration.stateDirectory else {
            throw CommandError(.invalidState, "this gateway keeps no state directory (state_directory)")
        }
        return folder
    }

    private func incarnationFile(in folder: String) -> String {
        StateBackup.incarnationFile(of: context.configuration, stateDirectory: folder)
    }
}
