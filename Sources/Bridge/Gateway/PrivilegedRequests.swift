/// Whether the gateway takes its privileged requests from the broker (`requests.privileged`): `options`, which
/// changes its settings for good (`auto_connect: all` turns adoption off across restarts), `rename`, which changes a
/// device's topics for good, `restore`, which replaces its state, and `restart`, which takes it offline. The README's
/// ACL recipe gives them to its `admin` user only; on a broker without one, anyone who can publish could send them.
public enum PrivilegedRequests: String, Sendable, CaseIterable {
    /// Taken when the gateway logs in to the broker with a password or a client certificate, refused when it reaches
    /// the broker without: a broker that lets the gateway in unnamed most likely lets anyone in, and its ACL (if any)
    /// cannot tell an administrator from a stranger.
    case auto
    /// Always taken (the broker's ACL decides who may send them).
    case on = "true"
    /// Never taken: a change of settings or a restart is made on the gateway's host.
    case off = "false"
}

extension BridgeConfiguration {
    /// Whether the gateway logs in to the broker: with a password (a user name alone names no one on a broker that
    /// lets anyone in) or a TLS client certificate.
    var brokerCredentials: Bool {
        mqtt.password != nil || mqtt.tls?.certificateFile != nil
    }

    /// Whether `options`, `rename`, `restore` and `restart` are taken, as `privilegedRequests` and the broker
    /// credentials decide.
    var takesPrivilegedRequests: Bool {
        switch privilegedRequests {
        case .auto: brokerCredentials
        case .on: true
        case .off: false
        }
    }

    /// What the gateway says at start and in its retained `info` when anyone on an open broker may restart it or change
    /// its settings: it reaches the broker without credentials, and privileged requests are on all the same.
    var privilegedRequestsWarning: String? {
        guard takesPrivilegedRequests, !brokerCredentials else { return nil }
        return "privileged requests (options, rename, restore, restart) are taken, and the gateway reaches the broker "
            + "without credentials: whoever can publish to it can change this gateway's settings and state and restart it. "
            + "Give the gateway a broker user and the README's ACL (Securing the broker), or set requests.privileged: false"
    }
}
