import CDBus
import Glibc

/// The server side: exported objects, their properties, an ObjectManager and introspection.
extension DBusConnection {
    /// Serves `object` at its path, replacing any object there. Under an object manager, the
    /// manager announces it with InterfacesAdded.
    public func export(_ object: DBusObject) throws {
        guard DBusNames.isValidObjectPath(object.path) else {
            throw DBusMarshalError("invalid object path '\(object.path)'")
        }
        let manager: String? = queue.sync {
            objects[object.path] = object
            return managerPath(covering: object.path)
        }
        if let manager {
            try emitSignal(
                path: manager, interface: DBusStandardInterface.objectManager, member: "InterfacesAdded",
                arguments: [.objectPath(object.path), object.interfacesAndProperties])
        }
    }

    /// Stops serving the object at `path`, announcing InterfacesRemoved under an object manager.
    public func unexport(path: String) {
        let (removed, manager): (DBusObject?, String?) = queue.sync {
            (objects.removeValue(forKey: path), managerPath(covering: path))
        }
        if let removed, let manager {
            try? emitSignal(
                path: manager, interface: DBusStandardInterface.objectManager, member: "InterfacesRemoved",
                arguments: [.objectPath(path), .strings(removed.interfaces.map(\.name))])
        }
    }

    /// Serves org.freedesktop.DBus.ObjectManager at `path` for every exported object below it.
    public func exportObjectManager(at path: String) throws {
        guard DBusNames.isValidObjectPath(path) else { throw DBusMarshalError("invalid object path '\(path)'") }
        queue.sync { _ = objectManagers.insert(path) }
    }

    public func removeObjectManager(at path: String) {
        queue.sync { _ = objectManagers.remove(path) }
    }

    /// Emits PropertiesChanged for `interface` of the object at `path`.
    public func emitPropertiesChanged(
        path: String, interface: String, changed: [String: DBusValue], invalidated: [String] = []
    ) throws {
        try emitSignal(
            path: path, interface: DBusStandardInterface.properties, member: "PropertiesChanged",
            arguments: [.string(interface), .properties(changed), .strings(invalidated)])
    }

    /// Asks the bus for a well-known name; throws unless this connection becomes its primary owner.
    public func requestName(_ name: String) async throws {
        let reply = try await call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "RequestName", arguments: [.string(name), .uint32(4)])  // 4: DBUS_NAME_FLAG_DO_NOT_QUEUE
        guard reply.first?.uint32 == 1 || reply.first?.uint32 == 4 else {  // primary owner, or already owner
            throw DBusError(name: DBusError.failedName, message: "name \(name) is taken")
        }
    }

    /// Whether some connection owns `name` now.
    public func nameHasOwner(_ name: String) async throws -> Bool {
        let reply = try await call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "NameHasOwner", arguments: [.string(name)])
        return reply.first?.bool ?? false
    }

    // MARK: Dispatch (on `queue`)

    private func managerPath(covering path: String) -> String? {
        objectManagers.filter { $0 != path && Self.isAncestor($0, of: path) }.max { $0.count < $1.count }
    }

    private static func isAncestor(_ ancestor: String, of path: String) -> Bool {
        ancestor == "/" ? path != "/" : path.hasPrefix(ancestor + "/")
    }

    /// Answers a method call addressed to this connection; false leaves it to libdbus (UnknownMethod).
    func handleMethodCall(_ message: DBusMessage) -> Bool {
        guard let path = message.path, let member = message.member else { return false }
        let interface = message.interface ?? ""
        let arguments = message.arguments()
        switch (interface, member) {
        case (DBusStandardInterface.introspectable, "Introspect"):
            reply(to: message, .success([.string(introspection(of: path))]))
            return true
        case (DBusStandardInterface.objectManager, "GetManagedObjects") where objectManagers.contains(path):
            reply(to: message, .success([managedObjects(under: path)]))
            return true
        default:
            break
        }
        guard let object = objects[path] else {
            reply(to: message, .failure(DBusError(name: DBusError.unknownObjectName, message: "no object at \(path)")))
            return true
        }
        if interface == DBusStandardInterface.properties {
            reply(to: message, properties(member, arguments, of: object))
            return true
        }
        let candidates = interface.isEmpty ? object.interfaces : object.interface(named: interface).map { [$0] } ?? []
        guard let target = candidates.first(where: { $0.methods[member] != nil }), let method = target.methods[member]
        else {
            reply(
                to: message,
                .failure(
                    DBusError(
                        name: DBusError.unknownMethodName, message: "\(interface).\(member) is not served at \(path)")))
            return true
        }
        let call = DBusMethodCall(
            sender: message.sender ?? "", path: path, interface: target.name, member: member, arguments: arguments)
        Task {
            do {
                reply(to: message, .success(try await method(call)))
            } catch let error as DBusError {
                reply(to: message, .failure(error))
            } catch {
                reply(to: message, .failure(DBusError(name: DBusError.failedName, message: "\(error)")))
            }
        }
        return true
    }

    private func properties(_ member: String, _ arguments: [DBusValue], of object: DBusObject) -> Result<
        [DBusValue], DBusError
    > {
        guard let interfaceName = arguments.first?.string, let interface = object.interface(named: interfaceName) else {
            return .failure(.invalidArgs("no such interface"))
        }
        switch member {
        case "GetAll":
            return .success([.properties(interface.properties())])
        case "Get":
            guard let name = arguments.dropFirst().first?.string, let value = interface.properties()[name] else {
                return .failure(DBusError(name: DBusError.unknownPropertyName, message: "no such property"))
            }
            return .success([.variant(value)])
        case "Set":
            guard arguments.count == 3, let name = arguments[1].string, let setter = interface.setProperty else {
                return .failure(DBusError(name: "org.freedesktop.DBus.Error.PropertyReadOnly", message: "read-only"))
            }
            do {
                try setter(name, arguments[2].unwrapped)
                return .success([])
            } catch let error as DBusError {
                return .failure(error)
            } catch {
                return .failure(.invalidArgs("\(error)"))
            }
        default:
            return .failure(DBusError(name: DBusError.unknownMethodName, message: member))
        }
    }

    private func managedObjects(under root: String) -> DBusValue {
        let entries = objects.values
            .filter { Self.isAncestor(root, of: $0.path) }
            .sorted { $0.path < $1.path }
            .map { DBusDictEntry(.objectPath($0.path), $0.interfacesAndProperties) }
        return .dictionary(keySignature: "o", valueSignature: "a{sa{sv}}", entries)
    }

    private func introspection(of path: String) -> String {
        var xml = "<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\" "
        xml += "\"http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd\">\n<node>\n"
        for interface in objects[path]?.interfaces ?? [] {
            xml += "  <interface name=\"\(interface.name)\">\n"
            for method in interface.methods.keys.sorted() { xml += "    <method name=\"\(method)\"/>\n" }
            xml += "  </interface>\n"
        }
        let prefix = path == "/" ? "/" : path + "/"
        let children = Set(
            objects.keys.filter { $0.hasPrefix(prefix) }.compactMap {
                $0.dropFirst(prefix.count).split(separator: "/").first
            })
        for child in children.sorted() { xml += "  <node name=\"\(child)\"/>\n" }
        return xml + "</node>\n"
    }

    private func reply(to message: DBusMessage, _ result: Result<[DBusValue], DBusError>) {
        guard !message.noReplyExpected else { return }
        switch result {
        case .success(let values):
            // A descriptor in a reply is handed over: the message holds its own duplicate once appended.
            defer { for case .unixFD(let descriptor) in values { Glibc.close(descriptor) } }
            guard let reply = message.methodReturn() else { return }
            do {
                try reply.append(values)
                enqueue(reply)
            } catch {
                logger.error("cannot marshal reply to \(message.member ?? ""): \(error)")
                if let failure = message.errorReply(DBusError(name: DBusError.failedName, message: "\(error)")) {
                    enqueue(failure)
                }
            }
        case .failure(let error):
            if let reply = message.errorReply(error) { enqueue(reply) }
        }
    }
}
