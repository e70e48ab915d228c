/// Runs `body`, then `cleanUp`, whether `body` returned or threw: the asynchronous `defer` Swift lacks, for the
/// `with` helpers that start something (a broker, a bus, a world, a guest) and must stop it whatever the test did.
public func withCleanUp<T>(
    isolation: isolated (any Actor)? = #isolation, _ cleanUp: () async -> Void, _ body: () async throws -> T
) async throws -> T {
    do {
        let result = try await body()
        await cleanUp()
        return result
    } catch {
        await cleanUp()
        throw error
    }
}
