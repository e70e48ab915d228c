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
        let everywhere = try load("http:\n  listen: 9000\n  token_file: token\n", directory: folder.path, environment: ["GATT2MQTT_HTTP": "0.0.0.0:9001"])
        #expect(everywhere.http?.listen == "0.0.0.0:9001")
        let flagged = try load(
            "http:\n  listen: 9000\n", environment: ["GATT2MQTT_HTTP": "9001"], flags: flags { $0.http = "[::1]:9002" })
        #expect(flagged.http?.listen == "[::1]:9002")
        #expect(flagged.description.contains("http:\n  listen: \"[::1]:9002\""))
    }

    @Test func credentialsComeFromFilesAndAreNeverPrinted() throws {
        let folder = try TemporaryFolder()
        try folder.write("password", "pa55\r\n")
        try folder.write("token", "t0k\n")
        let loaded = try load(
            "http:\n  listen: 8080\n  username: ops\n  password_file: password\n  token_file: token\n", directory: folder.path)
        let http = try #require(loaded.http)
        #expect(http.username == "ops" && http.password == "pa55" && http.token == "t0k")
        #expect(!loaded.description.contains("pa55") && !loaded.description.contains("t0k\n"))
        #expect(loaded.description.contains("token_file: \"\(folder.path)/token\""))
    }

    @Test(arguments: [
        ("http:\n  listen: 80800\n", "http.listen", "port from 1 to 65535"),
        ("http:\n  listen: 8080\n  username: ops\n", "http.username", "needs http.password_file"),
        ("http:\n  listen: 8080\n  password_file: p\n", "http.password_file", "needs http.username"),
        ("http:\n  listen: 8080\n  token_file: /nonexistent/token\n", "http.token_file", "/nonexistent/token"),
        ("http:\n  port: 8080\n", "http.port", "http takes hosts, listen, password_file, token_file, username"),
        // It only warned: anyone on the network could send commands, pair and forget.
        ("http:\n  listen: 0.0.0.0:8080\n", "http.listen", "0.0.0.0:8080 is reachable beyond this machine: give the page credentials"),
        ("http:\n  listen: '[::]:8080'\n", "http.listen", "[::]:8080 is reachable beyond this machine"),
        ("http:\n  listen: 127.0.0.1:8080\n  hosts: ['evil/x']\n", "http.hosts", "must be host names"),
    ])
    func mistakesNameTheirKey(_ yaml: String, _ key: String, _ message: String) throws {
        let error = try #require(loadError(yaml))
        #expect(error.key == key)
        #expect(error.message.contains(message), "\(error)")
    }
}
