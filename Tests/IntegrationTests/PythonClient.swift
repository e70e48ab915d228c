import TestSupport

extension TestWorld {
    /// Runs a Python client of this world's BlueZ (the project's venv) to its end: on the host in BlueZoo, in the guest
    /// on the real bluetoothd, since bleak authenticates only with EXTERNAL and acquires notifications as file
    /// descriptors, and neither goes over the guest's TCP bus. Whether it exited 0, and every line it wrote.
    func runPython(_ arguments: [String], name: String, timeout: Duration = .seconds(60)) async throws -> (
        succeeded: Bool, output: [String]
    ) {
        if isReal {
            let result = try await runInGuest([ProjectPaths.python] + arguments, timeout: timeout)
            return (result.status == 0, result.output)
        }
        let client = try launch(ProjectPaths.python, arguments, name: name)
        let succeeded = try await client.waitForExit(timeout: timeout) == .exited(0)
        return (succeeded, client.lines.map(\.text))
    }
}
