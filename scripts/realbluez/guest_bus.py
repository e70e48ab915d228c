"""The guest agent's D-Bus client: method calls on the guest's system bus from the agent's own process.

Why not busctl or dbus-send: under TCG each such child process cost the guest about 0.2 s of CPU, and a reset
polled the bus with several of them ten times a second, so resetting BlueZ took 1.5-5 s a world, most of it
starting clients. The guest's root is the host's, with no D-Bus module for its Python, so this speaks the wire
protocol itself: method calls and their replies only (no signals, no match rules), the types BlueZ's and
dbus-daemon's replies use. A value of a variant comes back as {"type": SIGNATURE, "data": VALUE}, as busctl's JSON
has it; a variant to send is given as (SIGNATURE, VALUE).
"""
import os
import socket
import struct
import threading

METHOD_CALL, METHOD_RETURN, ERROR = 1, 2, 3
# Header field codes (the specification's "Message Format").
PATH, INTERFACE, MEMBER, ERROR_NAME, REPLY_SERIAL, DESTINATION, SIGNATURE = 1, 2, 3, 4, 5, 6, 8
ALIGNMENT = {"y": 1, "b": 4, "n": 2, "q": 2, "i": 4, "u": 4, "x": 8, "t": 8, "d": 8, "h": 4, "s": 4, "o": 4, "g": 1,
             "a": 4, "(": 8, "{": 8, "v": 1}
FIXED = {"y": "B", "b": "I", "n": "h", "q": "H", "i": "i", "u": "I", "x": "q", "t": "Q", "d": "d", "h": "I"}


def split_types(signature):
    """'sa{sv}(ii)' → ['s', 'a{sv}', '(ii)']: the complete types of a signature."""
    types, index = [], 0
    while index < len(signature):
        end = complete_type_end(signature, index)
        types.append(signature[index:end])
        index = end
    return types


def complete_type_end(signature, index):
    code = signature[index]
    if code == "a":
        return complete_type_end(signature, index + 1)
    if code in "({":
        closing, depth, index = {"(": ")", "{": "}"}[code], 1, index + 1
        while depth:
            if signature[index] == code:
                depth += 1
            elif signature[index] == closing:
                depth -= 1
            index += 1
        return index
    return index + 1


class Writer:
    def __init__(self):
        self.data = bytearray()

    def align(self, boundary):
        self.data += bytes(-len(self.data) % boundary)

    def write(self, signature, value):
        code = signature[0]
        self.align(ALIGNMENT[code])
        if code in FIXED:
            self.data += struct.pack("<" + FIXED[code], int(value) if code == "b" else value)
        elif code in "so":
            encoded = value.encode()
            self.data += struct.pack("<I", len(encoded)) + encoded + b"\0"
        elif code == "g":
            self.data += bytes([len(value)]) + value.encode() + b"\0"
        elif code == "v":
            inner, inner_value = value
            self.write("g", inner)
            self.write(inner, inner_value)
        elif code == "(":
            for member, item in zip(split_types(signature[1:-1]), value):
                self.write(member, item)
        elif code == "a":
            element = signature[1:]
            length_at = len(self.data)
            self.data += bytes(4)
            self.align(ALIGNMENT[element[0]])
            start = len(self.data)
            items = value.items() if element[0] == "{" else value
            for item in items:
                self.write(element if element[0] != "{" else "(" + element[1:-1] + ")", item)
            struct.pack_into("<I", self.data, length_at, len(self.data) - start)
        else:
            raise ValueError(f"cannot write D-Bus type {signature}")


class Reader:
    def __init__(self, data, little):
        self.data, self.offset, self.order = data, 0, "<" if little else ">"

    def align(self, boundary):
        self.offset += -self.offset % boundary

    def unpack(self, form):
        (value,) = struct.unpack_from(self.order + form, self.data, self.offset)
        self.offset += struct.calcsize(form)
        return value

    def read(self, signature):
        code = signature[0]
        self.align(ALIGNMENT[code])
        if code in FIXED:
            value = self.unpack(FIXED[code])
            return bool(value) if code == "b" else value
        if code in "sog":
            length = self.data[self.offset] if code == "g" else self.unpack("I")
            if code == "g":
                self.offset += 1
            text = self.data[self.offset:self.offset + length].decode(errors="replace")
            self.offset += length + 1
            return text
        if code == "v":
            inner = self.read("g")
            return {"type": inner, "data": self.read(inner)}
        if code == "(":
            return [self.read(member) for member in split_types(signature[1:-1])]
        if code == "a":
            length = self.unpack("I")
            element = signature[1:]
            self.align(ALIGNMENT[element[0]])
            end = self.offset + length
            if element[0] == "{":
                key, item = split_types(element[1:-1])
                entries = {}
                while self.offset < end:
                    self.align(8)
                    name = self.read(key)
                    entries[name] = self.read(item)
                return entries
            items = []
            while self.offset < end:
                items.append(self.read(element))
            return items
        raise ValueError(f"cannot read D-Bus type {signature}")


class Bus:
    """One connection to the system bus, opened on first use and again after it broke."""

    def __init__(self, path="/run/dbus/system_bus_socket", timeout=10):
        self.path, self.timeout = path, timeout
        self.connection = None
        # What the bus sent that is not yet read as a message.
        self.received = b""
        self.serial = 0
        self.unique_name = None
        # The agent's watcher threads may ask too (bluez_owner when bluetoothd ends).
        self.lock = threading.Lock()

    def call(self, destination, path, interface, member, signature="", *arguments):
        """The reply's values, a list; an error reply raises RuntimeError with its name and message."""
        with self.lock:
            try:
                if self.connection is None:
                    self.open()
                return self.exchange(destination, path, interface, member, signature, arguments)
            except (OSError, ValueError, struct.error):
                self.close()
                raise

    def open(self):
        self.connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.connection.settimeout(self.timeout)
        self.connection.connect(self.path)
        self.received = b""
        uid = str(os.getuid()).encode().hex()
        self.connection.sendall(b"\0AUTH EXTERNAL " + uid.encode() + b"\r\n")
        while b"\r\n" not in self.received:
            self.receive()
        line, self.received = self.received.split(b"\r\n", 1)
        if not line.startswith(b"OK "):
            raise OSError(f"the bus refused the agent: {line!r}")
        self.connection.sendall(b"BEGIN\r\n")
        self.unique_name = self.exchange("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                         "Hello", "", ())[0]

    def close(self):
        if self.connection is not None:
            self.connection.close()
        self.connection, self.unique_name = None, None

    def receive(self):
        chunk = self.connection.recv(65536)
        if not chunk:
            raise OSError("the bus closed the connection")
        self.received += chunk

    def exchange(self, destination, path, interface, member, signature, arguments):
        self.serial += 1
        body = Writer()
        for member_type, value in zip(split_types(signature), arguments):
            body.write(member_type, value)
        fields = [(PATH, ("o", path)), (INTERFACE, ("s", interface)), (MEMBER, ("s", member)),
                  (DESTINATION, ("s", destination))]
        if signature:
            fields.append((SIGNATURE, ("g", signature)))
        header = Writer()
        header.data += struct.pack("<cBBBII", b"l", METHOD_CALL, 0, 1, len(body.data), self.serial)
        header.write("a(yv)", fields)
        header.align(8)
        self.connection.sendall(bytes(header.data + body.data))
        while True:
            kind, header_fields, body_data, little = self.next_message()
            if header_fields.get(REPLY_SERIAL) != self.serial or kind not in (METHOD_RETURN, ERROR):
                continue  # a signal or another's message: not asked for
            reader = Reader(body_data, little)
            values = [reader.read(t) for t in split_types(header_fields.get(SIGNATURE, ""))]
            if kind == ERROR:
                raise RuntimeError(f"{header_fields.get(ERROR_NAME)}: {values[0] if values else ''}")
            return values

    def next_message(self):
        while len(self.received) < 16:
            self.receive()
        little = self.received[:1] == b"l"
        order = "<" if little else ">"
        kind = self.received[1]
        body_length, _, fields_length = struct.unpack_from(order + "III", self.received, 4)
        header_length = 16 + fields_length + (-(16 + fields_length) % 8)
        while len(self.received) < header_length + body_length:
            self.receive()
        # Aligned as in the message: the fields array starts at offset 12 (its length), its items at 16.
        reader = Reader(self.received[:header_length], little)
        reader.offset = 12
        fields = {code: value["data"] for code, value in reader.read("a(yv)")}
        body = self.received[header_length:header_length + body_length]
        self.received = self.received[header_length + body_length:]
        return kind, fields, body, little
