#!/usr/bin/env python3
"""Cross-check: replays the MQTT traffic of the Node-RED example flow with a real MQTT 5 client.

Reads a Node-RED flow export (examples/node-red-flow.json), checks that it hangs together (unique
ids, every wire and every MQTT node's broker exists, the broker speaks MQTT 5), and extracts:

- its subscriptions: the topic and QoS of every `mqtt in` node;
- its publishes: every path inject → (function …) → `mqtt out`, run the way Node-RED would run it:
  the inject's topic and payload, then the function's `msg.topic`, `msg.payload`,
  `msg.responseTopic` and `msg.correlationData` assignments, then the `mqtt out` node's own
  topic, QoS and response topic where set. Objects are sent as JSON.stringify sends them.

Then, with paho-mqtt over MQTT 5, it subscribes like the flow, sends the flow's publishes (the
Activ5 start first, so that forces flow), and checks what the flow would show: at least --headings
`belt/<belt>/heading` messages, at least --forces `a5/<a5>/force` messages, and the reply
`{"command":"vibrate","ok":true}` on the vibrate's response topic with its correlation data.
Device ids come from the flow's command topics unless --belt / --a5 name others.

Standard output is a line protocol for tests:

    REPLAY SUBSCRIBE <filter> <qos>
    REPLAY PUBLISH <topic> <payload> <response topic or -> <correlation hex or ->
    REPLAY HEADING <degrees>
    REPLAY FORCE <newtons>
    REPLAY REPLY <json> <correlation hex>
    REPLAY OK

Any failure prints `REPLAY FAIL <reason>` and exits non-zero (1: a check failed, 2: the hard
timeout struck before everything arrived).
"""

import argparse
import json
import os
import re
import secrets
import sys
import threading

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

EXPECTED_REPLY = {"command": "vibrate", "ok": True}


class CheckFailed(Exception):
    pass


def say(*words):
    print("REPLAY", *words, flush=True)


def fail(reason, code=1):
    say("FAIL", reason)
    sys.stdout.flush()
    os._exit(code)  # also from paho's thread or the watchdog


# --- The flow ---------------------------------------------------------------------------------


def load_flow(path):
    """The flow's nodes by id, after checking that the export hangs together."""
    try:
        with open(path, encoding="utf-8") as file:
            nodes = json.load(file)
    except (OSError, ValueError) as error:
        raise CheckFailed(f"cannot read the flow {path}: {error}")
    if not isinstance(nodes, list) or not all(isinstance(n, dict) and "id" in n and "type" in n for n in nodes):
        raise CheckFailed("a flow export is a JSON array of nodes, each with an id and a type")
    by_id = {}
    for node in nodes:
        if node["id"] in by_id:
            raise CheckFailed(f"node id {node['id']} is used twice")
        by_id[node["id"]] = node
    for node in nodes:
        if "z" in node and node["z"] and node["z"] not in by_id:
            raise CheckFailed(f"node {node['id']} is on tab {node['z']}, which the flow does not have")
        for output in node.get("wires", []):
            for target in output:
                if target not in by_id:
                    raise CheckFailed(f"node {node['id']} ({node['type']}) is wired to {target}, which does not exist")
        if node["type"] in ("mqtt in", "mqtt out"):
            broker = by_id.get(node.get("broker"))
            if broker is None or broker["type"] != "mqtt-broker":
                raise CheckFailed(f"{node['type']} node {node['id']} has no mqtt-broker config node")
            if str(broker.get("protocolVersion")) != "5":
                version = broker.get("protocolVersion")
                raise CheckFailed(f"mqtt-broker {broker['id']} is not MQTT 5 (protocolVersion {version!r})")
    return by_id


def subscriptions(by_id):
    """(filter, qos) of every `mqtt in` node, in flow order."""
    result = []
    for node in by_id.values():
        if node["type"] == "mqtt in":
            if not node.get("topic"):
                raise CheckFailed(f"mqtt in node {node['id']} has no topic (dynamic subscriptions are not replayed)")
            result.append((node["topic"], int(node.get("qos") or 0)))
    if not result:
        raise CheckFailed("the flow has no mqtt in node")
    return result


def inject_message(node):
    """The message an inject node sends: its topic and payload properties."""
    message = {}
    props = node.get("props") or [{"p": "payload"}, {"p": "topic"}]  # older exports have no props
    for prop in props:
        name = prop.get("p")
        if name == "payload":
            value, kind = node.get("payload", ""), node.get("payloadType", "date")
        elif name == "topic":
            value, kind = node.get("topic", ""), "str"
        else:
            value, kind = prop.get("v", ""), prop.get("vt", "str")
        if kind == "json":
            message[name] = json.loads(value)
        elif kind == "num":
            message[name] = float(value) if "." in value else int(value)
        elif kind == "date":
            message[name] = 0  # a timestamp; the flow's functions replace it
        else:
            message[name] = value
    return message


STRING = r'"((?:[^"\\]|\\.)*)"|\'((?:[^\'\\]|\\.)*)\''


def js_string(match):
    return json.loads('"' + (match.group(1) if match.group(1) is not None else match.group(2)) + '"')


def run_function(node, message):
    """Applies the plain assignments a function node makes to msg; anything else fails loudly."""
    code = node.get("func", "")
    for name in ("topic", "responseTopic"):
        for found in re.finditer(rf"^\s*msg\.{name}\s*=\s*(?:{STRING})\s*;", code, re.M):
            message[name] = js_string(found)
    for found in re.finditer(r"^\s*msg\.payload\s*=\s*(.+?)\s*;\s*$", code, re.M):
        try:
            message["payload"] = json.loads(found.group(1))
        except ValueError:
            raise CheckFailed(f"function {node['id']}: msg.payload is not a JSON literal: {found.group(1)}")
    for found in re.finditer(r"^\s*msg\.correlationData\s*=\s*(.+?)\s*;", code, re.M):
        expression = found.group(1).replace(" ", "")
        literal = re.fullmatch(rf"Buffer\.from\((?:{STRING})(?:,(?:{STRING}))?\)", found.group(1).strip())
        if expression == "Buffer.from(msg._msgid)":
            # Node-RED's _msgid (RED.util.generateId): 8 random bytes as 16 hex digits.
            message["correlationData"] = secrets.token_hex(8).encode()
        elif literal:
            text = json.loads('"' + (literal.group(1) if literal.group(1) is not None else literal.group(2)) + '"')
            encoding = (literal.group(3) or literal.group(4) or "utf8").lower()
            message["correlationData"] = bytes.fromhex(text) if encoding == "hex" else text.encode()
        else:
            raise CheckFailed(f"function {node['id']}: cannot replay msg.correlationData = {found.group(1)}")
    return message


def send_like_mqtt_out(node, message):
    """What an `mqtt out` node publishes for `message`: (topic, payload, qos, response topic, correlation)."""
    topic = node.get("topic") or message.get("topic")
    response = node.get("respTopic") or message.get("responseTopic")
    correlation = message.get("correlationData")
    if node.get("correl"):
        raise CheckFailed(f"mqtt out {node['id']}: a configured correlation data is not replayed")
    payload = message.get("payload", "")
    if isinstance(payload, (dict, list)):
        payload = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)  # JSON.stringify
    elif isinstance(payload, bool):
        payload = "true" if payload else "false"
    else:
        payload = str(payload)
    if not topic:
        raise CheckFailed(f"mqtt out {node['id']} gets a message without a topic")
    qos = int(node.get("qos") or message.get("qos") or 0)
    return topic, payload, qos, response, correlation


def publishes(by_id):
    """Every inject → … → mqtt out path, as the publish it ends in, in flow order."""
    result = []

    def walk(node_id, message, seen):
        node = by_id[node_id]
        if node_id in seen:
            return
        if node["type"] == "mqtt out":
            result.append(send_like_mqtt_out(node, message))
            return
        if node["type"] == "function":
            message = run_function(node, dict(message))
        elif node["type"] not in ("inject", "junction", "link out", "link in"):
            return  # not a path this replay follows (debug, change, …)
        for output in node.get("wires", []):
            for target in output:
                walk(target, dict(message), seen | {node_id})

    for node in by_id.values():
        if node["type"] == "inject":
            walk(node["id"], inject_message(node), frozenset())
    if not result:
        raise CheckFailed("the flow publishes nothing (no inject → mqtt out path)")
    return result


def topic_matches(pattern, topic):
    pattern_levels, levels = pattern.split("/"), topic.split("/")
    for index, level in enumerate(pattern_levels):
        if level == "#":
            return True
        if index >= len(levels) or (level != "+" and level != levels[index]):
            return False
    return len(pattern_levels) == len(levels)


def with_device(topic, family, device):
    """`topic` with its device id replaced, when it is a `<family>/<id>/…` topic and `device` is set."""
    levels = topic.split("/")
    if device and len(levels) > 2 and levels[0] == family:
        levels[1] = device
    return "/".join(levels)


def device_of(sends, family, command):
    for topic, *_ in sends:
        levels = topic.split("/")
        if len(levels) == 4 and levels[0] == family and levels[2:] == ["cmd", command]:
            return levels[1]
    raise CheckFailed(f"the flow never sends {family}/<id>/cmd/{command}")


# --- The replay -------------------------------------------------------------------------------


class Replay:
    def __init__(self, args, filters, sends, belt, a5):
        self.args = args
        self.filters = filters
        self.sends = sends
        self.heading_topic = f"belt/{belt}/heading"
        self.force_topic = f"a5/{a5}/force"
        vibrate = [s for s in sends if s[0] == f"belt/{belt}/cmd/vibrate"]
        if len(vibrate) != 1:
            raise CheckFailed(f"the flow must send exactly one vibrate command, sends {len(vibrate)}")
        _, _, _, self.response_topic, self.correlation = vibrate[0]
        if not self.response_topic or not self.correlation:
            raise CheckFailed("the flow's vibrate command has no response topic or no correlation data")
        for topic in (self.heading_topic, self.force_topic, self.response_topic):
            if not any(topic_matches(f, topic) for f, _ in filters):
                raise CheckFailed(f"no subscription of the flow receives {topic}")
        self.lock = threading.Lock()
        self.headings = []
        self.forces = []
        self.reply = None
        self.done = threading.Event()
        self.subscribed = threading.Event()
        self.connected = threading.Event()

    def missing(self):
        with self.lock:
            parts = []
            if len(self.headings) < self.args.headings:
                parts.append(f"{len(self.headings)}/{self.args.headings} headings on {self.heading_topic}")
            if len(self.forces) < self.args.forces:
                parts.append(f"{len(self.forces)}/{self.args.forces} forces on {self.force_topic}")
            if self.reply is None:
                parts.append(f"no reply on {self.response_topic}")
            return ", ".join(parts)

    def on_connect(self, client, userdata, flags, reason_code, properties):
        if reason_code.is_failure:
            fail(f"the broker refused the connection: {reason_code}")
        self.connected.set()

    def on_subscribe(self, client, userdata, mid, reason_codes, properties):
        refused = [str(code) for code in reason_codes if code.is_failure]
        if refused:
            fail(f"the broker refused a subscription: {', '.join(refused)}")
        self.subscribed.set()

    def on_disconnect(self, client, userdata, flags, reason_code, properties):
        if not self.done.is_set():
            fail(f"the broker closed the connection: {reason_code}")

    def on_message(self, client, userdata, message):
        text = message.payload.decode("utf-8", errors="replace")
        if message.topic == self.heading_topic:
            if not re.fullmatch(r"\d+", text) or not 0 <= int(text) <= 359:
                fail(f"heading {text!r} is not whole degrees 0-359")
            say("HEADING", text)
            with self.lock:
                self.headings.append(int(text))
        elif message.topic == self.force_topic:
            try:
                float(text)
            except ValueError:
                fail(f"force {text!r} is not a number of newtons")
            say("FORCE", text)
            with self.lock:
                self.forces.append(float(text))
        elif message.topic == self.response_topic:
            correlation = getattr(message.properties, "CorrelationData", None) if message.properties else None
            say("REPLY", text, correlation.hex() if correlation else "-")
            if correlation != self.correlation:
                fail(f"the reply's correlation data {correlation!r} is not the request's {self.correlation!r}")
            try:
                reply = json.loads(text)
            except ValueError:
                fail(f"the reply is not JSON: {text!r}")
            if reply != EXPECTED_REPLY:
                fail(f"the reply is {text}, expected {json.dumps(EXPECTED_REPLY, separators=(',', ':'))}")
            with self.lock:
                if self.reply is not None:
                    fail("the vibrate command was answered twice")
                self.reply = reply
        else:
            return
        if not self.missing():
            self.done.set()

    def run(self):
        host, _, port = self.args.broker.rpartition(":")
        client = mqtt.Client(
            callback_api_version=mqtt.CallbackAPIVersion.VERSION2,
            client_id=f"node-red-replay-{secrets.token_hex(4)}",
            protocol=mqtt.MQTTv5,
        )
        client.on_connect = self.on_connect
        client.on_subscribe = self.on_subscribe
        client.on_disconnect = self.on_disconnect
        client.on_message = self.on_message
        try:
            client.connect(host or "127.0.0.1", int(port), keepalive=30, clean_start=True)
        except (OSError, ValueError) as error:
            raise CheckFailed(f"cannot connect to the broker {self.args.broker}: {error}")
        client.loop_start()
        try:
            if not self.connected.wait(self.args.timeout):
                fail("no CONNACK from the broker", 2)
            # Subscribe like the flow's mqtt in nodes, all at once, before anything is sent.
            for topic, qos in self.filters:
                say("SUBSCRIBE", topic, qos)
            result, _ = client.subscribe([(topic, qos) for topic, qos in self.filters])
            if result != mqtt.MQTT_ERR_SUCCESS:
                raise CheckFailed(f"cannot subscribe: {mqtt.error_string(result)}")
            if not self.subscribed.wait(self.args.timeout):
                fail("no SUBACK from the broker", 2)
            # The Activ5 start first (force only flows once started), then the vibrate request.
            ordered = sorted(self.sends, key=lambda send: "/cmd/start" not in send[0])
            for topic, payload, qos, response, correlation in ordered:
                properties = Properties(PacketTypes.PUBLISH)
                if response:
                    properties.ResponseTopic = response
                if correlation:
                    properties.CorrelationData = correlation
                say("PUBLISH", topic, payload, response or "-", correlation.hex() if correlation else "-")
                info = client.publish(topic, payload, qos=qos, properties=properties)
                if info.rc != mqtt.MQTT_ERR_SUCCESS:
                    raise CheckFailed(f"cannot publish on {topic}: {mqtt.error_string(info.rc)}")
            if not self.done.wait(self.args.timeout):
                fail(f"timeout after {self.args.timeout:g} s: {self.missing()}", 2)
        finally:
            self.done.set()
            client.disconnect()
            client.loop_stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--broker", default="127.0.0.1:1883", help="host:port of the MQTT broker")
    parser.add_argument("--flow", default=os.path.join(os.path.dirname(__file__), "../../examples/node-red-flow.json"))
    parser.add_argument("--belt", help="the belt's id (default: the one the flow commands)")
    parser.add_argument("--a5", help="the Activ5's id (default: the one the flow starts)")
    parser.add_argument("--headings", type=int, default=2, help="headings to wait for")
    parser.add_argument("--forces", type=int, default=2, help="forces to wait for")
    parser.add_argument("--timeout", type=float, default=30, help="hard limit for the whole run, seconds")
    args = parser.parse_args()

    # The hard limit holds whatever blocks (a broker that accepts TCP and never answers, say).
    watchdog = threading.Timer(args.timeout + 5, fail, args=(f"hard timeout after {args.timeout + 5:g} s", 2))
    watchdog.daemon = True
    watchdog.start()
    try:
        by_id = load_flow(args.flow)
        filters = subscriptions(by_id)
        flow_sends = publishes(by_id)
        belt = args.belt or device_of(flow_sends, "belt", "vibrate")
        a5 = args.a5 or device_of(flow_sends, "a5", "start")
        sends = [
            (with_device(with_device(topic, "belt", args.belt), "a5", args.a5), *rest)
            for topic, *rest in flow_sends
        ]
        Replay(args, filters, sends, belt, a5).run()
    except CheckFailed as error:
        fail(str(error))
    say("OK")
    sys.stdout.flush()
    os._exit(0)  # paho's thread is stopped; do not wait on anything else


if __name__ == "__main__":
    main()
