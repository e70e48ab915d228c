import Testing
import WebUI

@testable import DaemonConfiguration

/// The `http:` section, `--http` and `GATT2MQTT_HTTP`: the live page is off unless asked for.
struct HTTPSettingsTests {
    @Test func thePageIsOffByDefaultAndItsCredentialsAloneDoNotTurnItOn() throws {
        #expect(try load("").http == nil)
        #expect(try load("http:\n  username: ops\n").http == nil)
    }

    @Test func flagOverEnvironmentOverFileAndLoopbackByDefault() throws {
        #expect(try load("http:\n  listen: 9000\n").http?.listen == "127.0.0.1:9000")
        let folder = try TemporaryFolder()
        try folder.write("token", "t0k\n")
        let everywhere = try load(
            "http:\n  listen: 9000\n  token_file: token\n", directory: folder.path,
            environment: ["GATT2MQTT_HTTP": "0.0.0.0:9001"])
        #expect(everywhere.http?.listen == "0.0.0.0:9001")
        let flagged = try load(
            "http:\n  listen: 9000\n", environment: ["GATT2MQTT_HTTP": "9001"], flags: flags("--http", "[::1]:9002"))
        #expect(flagged.http?.listen == "[::1]:9002")
        #expect(flagged.description.contains("http:\n  listen: \"[::1]:9002\""))
    }

    @Test func credentialsComeFromFilesAndAreNeverPrinted() throws {
        let folder = try TemporaryFolder()
        try folder.write("password", "pa55\r\n")
        try folder.write("token", "t0k\n")
        let loaded = try load(
            "http:\n  listen: 8080\n  username: ops\n  password_file: password\n  token_file: token\n",
            directory: folder.path)
        let http = try #require(loaded.http)
        #expect(http.username == "ops" && http.password == "pa55" && http.token == "t0k")
        #expect(!loaded.description.contains("pa55") && !loaded.description.contains("t0k\n"))
        #expect(loaded.description.contains("token_file: \"\(folder.path)/token\""))
    }

    @Test(arguments: [
        ("http:\n  listen: 80800\n", "http.listen", "port from 1 to 65535"),
        ("http:\n  listen: 8080\n  password_file: p\n", "http.password_file", "needs http.username"),
        ("http:\n  listen: 8080\n  token_file: /nonexistent/token\n", "http.token_file", "/nonexistent/token"),
        (
            "http:\n  port: 8080\n", "http.port",
            "http takes hosts, listen, max_connections, max_connections_per_source, password_file, password_hash_file, token_file, username"
        ),
        (
            "http:\n  listen: 8080\n  username: ops\n", "http.username",
            "needs http.password_file or http.password_hash_file"
        ),
        ("http:\n  listen: 8080\n  password_hash_file: h\n", "http.password_hash_file", "needs http.username"),
        ("http:\n  listen: 8080\n  max_connections: 0\n", "http.max_connections", "from 1 to 65536"),
        (
            "http:\n  listen: 8080\n  max_connections: 10\n  max_connections_per_source: 11\n",
            "http.max_connections_per_source", "from 1 to http.max_connections (10)"
        ),
        // It only warned: anyone on the network could send commands, pair and forget.
        (
            "http:\n  listen: 0.0.0.0:8080\n", "http.listen",
            "0.0.0.0:8080 is reachable beyond this machine: give the page credentials"
        ),
        ("http:\n  listen: '[::]:8080'\n", "http.listen", "[::]:8080 is reachable beyond this machine"),
        ("http:\n  listen: 127.0.0.1:8080\n  hosts: ['evil/x']\n", "http.hosts", "must be host names"),
    ])
    func mistakesNameTheirKey(_ yaml: String, _ key: String, _ message: String) throws {
        let error = try #require(loadError(yaml))
        #expect(error.key == key)
        #expect(error.message.contains(message), "\(error)")
    }

    /// PHP's documented example of `password_hash`, as htpasswd -B writes them too (`$2y$`).
    static let hash = "$2y$10$.vGA1O9wmRjrwAVXD98HNOgsNpDczlqm3Jq7KnEd1rVAGv3Fykk1a"

    @Test func aBcryptHashFileStandsInForThePasswordFileAndIsNeverPrinted() throws {
        let folder = try TemporaryFolder()
        try folder.write("hash", Self.hash + "\n")
        let loaded = try load(
            "http:\n  listen: 8080\n  username: ops\n  password_hash_file: hash\n", directory: folder.path)
        let http = try #require(loaded.http)
        #expect(http.username == "ops" && http.passwordHash == Self.hash && http.password == nil)
        #expect(!loaded.description.contains(Self.hash))
        #expect(loaded.description.contains("password_hash_file: \"\(folder.path)/hash\""))
    }

    @Test func aHashFileWithoutAHashOrBesideAPasswordFileIsRefused() throws {
        let folder = try TemporaryFolder()
        try folder.write("hash", "secret\n")
        try folder.write("password", "secret\n")
        let notAHash = try #require(
            loadError("http:\n  listen: 8080\n  username: ops\n  password_hash_file: hash\n", directory: folder.path))
        #expect(notAHash.key == "http.password_hash_file")
        #expect(
            notAHash.message.contains("does not hold a bcrypt hash") && notAHash.message.contains("htpasswd -nbBC 12"),
            "\(notAHash)")
        #expect(!notAHash.description.contains("secret"))
        let both = try #require(
            loadError(
                "http:\n  listen: 8080\n  username: ops\n  password_file: password\n  password_hash_file: hash\n",
                directory: folder.path))
        #expect(both.key == "http.password_hash_file" && both.message.contains("use one of them"))
    }

    @Test func connectionLimitsHaveDefaultsAndCanBeSet() throws {
        let defaults = try #require(try load("http:\n  listen: 8080\n").http)
        #expect(defaults.maxConnections == 256 && defaults.maxConnectionsPerSource == 32)
        let set = try #require(
            try load("http:\n  listen: 8080\n  max_connections: 16\n  max_connections_per_source: 4\n").http)
        #expect(set.maxConnections == 16 && set.maxConnectionsPerSource == 4)
        let small = try #require(try load("http:\n  listen: 8080\n  max_connections: 8\n").http)
        #expect(small.maxConnectionsPerSource == 8, "the per-source limit never exceeds the total")
    }
}
