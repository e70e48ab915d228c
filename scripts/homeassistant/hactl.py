"""hactl: drive a test Home Assistant instance from the gatt2mqtt integration test.

Run it with the Home Assistant venv's interpreter (it needs aiohttp, which
that venv has, and nothing else), e.g.
`.build/homeassistant/venv/bin/python scripts/homeassistant/hactl.py SUBCOMMAND ...`.

Every subcommand prints exactly one JSON document on stdout and exits 0; on
failure it prints `hactl: <message>` on stderr and exits 1 (3 on a timeout,
2 on a usage error).

--url defaults to $HACTL_URL, --token to $HACTL_TOKEN.

Subcommands:

  configure CONFIG_DIR --port P [--log-level info]
      Write a minimal configuration.yaml (+ empty automations.yaml) for a
      throw-away instance listening on 127.0.0.1:P. hass logs to
      CONFIG_DIR/home-assistant.log unless started with --log-file.
      -> {"config_dir": ..., "url": "http://127.0.0.1:P"}

  onboard --url U [--wait-seconds 180] [--username U --password P]
      Wait for the HTTP API, create the owner user (or log in as it when a
      previous run already did), finish the side-effect-free onboarding
      steps, wait until hass is RUNNING, and create a long-lived token.
      Fails at once (instead of waiting) when hass answers HTTP 500 because
      hass_nabucasa does not import in the venv hactl runs from.
      -> {"token": "...", "user_created": bool, "onboarding": {...},
          "api_seconds": s, "running_seconds": s}

  add-mqtt --url U --token T --broker HOST --port P [--timeout 60]
      Add the MQTT integration through the config flow (idempotent) and wait
      until the entry is loaded. -> the config entry

  states --url U --token T [--prefix sensor.belt_]
      -> [state, ...] whose entity_id starts with the prefix

  wait-gone --url U --token T --unique-id-prefix P [--timeout 60]
      Wait until the entity registry holds no MQTT entity whose unique_id
      starts with P (their configs were removed; Home Assistant drops the
      state first and the registry entry after it). -> {"gone": true}

  wait-state --url U --token T --entity E [--entity E2 ...] --state S [--not] [--timeout 60]
      Wait until E exists and its state is (with --not: is not) S; with
      several entities, until every one's is (one process for them all).
      -> the state object; with several, {entity_id: state object}

  call --url U --token T DOMAIN SERVICE [--data JSON] [--return-response]
      POST /api/services/DOMAIN/SERVICE. -> Home Assistant's response
      (the changed states). With --return-response the call goes over the
      websocket, which has responses on every release (2024.3's REST API
      ignores ?return_response): -> {"changed_states": [...], "service_response": ...}

  registry --url U --token T
      -> {"entities": [...], "devices": [...]}: entity registry entries of
         platform mqtt and the devices of the MQTT config entry.

  repairs --url U --token T
      -> [issue, ...] from repairs/list_issues (all domains)

  add-trigger-automation --url U --token T --device-identifier ID
                         --type TYPE --subtype SUBTYPE [--id ID] [--timeout 60]
      Create (or replace) an automation triggered by the MQTT device trigger
      TYPE/SUBTYPE of the device whose identifiers contain ID; its action
      fires the event `hactl_automation_triggered`.
      -> {"automation": "automation.<...>", "id": ..., "device_id": ..., "trigger": {...}}

  wait-triggered --url U --token T --automation automation.x [--after ISO] [--timeout 30]
      Wait until the automation's last_triggered attribute is set (and, with
      --after, later than that ISO 8601 time). -> the automation's state object
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import aiohttp

EXIT_ERROR = 1
EXIT_TIMEOUT = 3

# Event fired by automations created with add-trigger-automation.
TRIGGERED_EVENT = "hactl_automation_triggered"

HTTP_TIMEOUT = aiohttp.ClientTimeout(total=30)

# Time to wait for the close handshake of a websocket. aiohttp >= 3.10 takes
# a ClientWSTimeout (a plain float is deprecated there); older ones, such as
# the 3.9 of Home Assistant 2024.3, only know the float.
WS_CLOSE_TIMEOUT: Any = (
    aiohttp.ClientWSTimeout(ws_close=10) if hasattr(aiohttp, "ClientWSTimeout") else 10.0
)


class HactlError(Exception):
    """A failure reported as `hactl: <message>` with exit status 1."""

    exit_code = EXIT_ERROR


class HactlTimeout(HactlError):
    """A wait that ran out of time (exit status 3)."""

    exit_code = EXIT_TIMEOUT


# --------------------------------------------------------------------------
# Transport helpers


class Rest:
    """Authenticated REST calls against one Home Assistant."""

    def __init__(self, session: aiohttp.ClientSession, url: str, token: str | None) -> None:
        self.session = session
        self.url = url.rstrip("/")
        self.token = token

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    async def request(
        self,
        method: str,
        path: str,
        payload: Any = None,
        *,
        ok: tuple[int, ...] = (200, 201),
    ) -> Any:
        async with self.session.request(
            method,
            self.url + path,
            json=payload,
            headers=self._headers(),
            timeout=HTTP_TIMEOUT,
        ) as resp:
            text = await resp.text()
            if resp.status not in ok:
                raise HactlError(f"{method} {path} -> HTTP {resp.status}: {text.strip()[:500]}")
            if not text:
                return None
            try:
                return json.loads(text)
            except ValueError:
                return text

    async def get(self, path: str, **kw: Any) -> Any:
        return await self.request("GET", path, **kw)

    async def post(self, path: str, payload: Any = None, **kw: Any) -> Any:
        return await self.request("POST", path, payload, **kw)


class WebSocket:
    """Home Assistant websocket API client: commands plus event subscriptions.

    One reader task routes results to the waiting command and events to a
    queue per subscription, because events and results interleave freely.
    """

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.next_id = 1
        self.results: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.events: dict[int, asyncio.Queue[dict[str, Any]]] = {}
        self.reader: asyncio.Task[None] | None = None
        self.closed_reason: str | None = None

    @classmethod
    @contextlib.asynccontextmanager
    async def connect(
        cls, session: aiohttp.ClientSession, url: str, token: str
    ) -> AsyncIterator[WebSocket]:
        ws_url = re.sub(r"^http", "ws", url.rstrip("/")) + "/api/websocket"
        async with session.ws_connect(
            ws_url, max_msg_size=64 * 1024 * 1024, timeout=WS_CLOSE_TIMEOUT
        ) as ws:
            hello = await asyncio.wait_for(ws.receive_json(), 30)
            if hello.get("type") != "auth_required":
                raise HactlError(f"websocket: unexpected greeting {hello}")
            await ws.send_json({"type": "auth", "access_token": token})
            auth = await asyncio.wait_for(ws.receive_json(), 30)
            if auth.get("type") != "auth_ok":
                raise HactlError(f"websocket: authentication failed: {auth}")
            client = cls(ws)
            client.reader = asyncio.create_task(client._read())
            try:
                yield client
            finally:
                client.reader.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await client.reader

    async def _read(self) -> None:
        try:
            async for msg in self.ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    continue
                data = json.loads(msg.data)
                for item in data if isinstance(data, list) else [data]:
                    self._dispatch(item)
            self.closed_reason = "websocket closed by Home Assistant"
        except Exception as err:  # reported to every waiter below
            self.closed_reason = f"websocket failed: {err!r}"
        for future in self.results.values():
            if not future.done():
                future.set_exception(HactlError(self.closed_reason))
        for queue in self.events.values():
            queue.put_nowait({"type": "closed"})

    def _dispatch(self, item: dict[str, Any]) -> None:
        msg_id = item.get("id")
        if item.get("type") == "event" and msg_id in self.events:
            self.events[msg_id].put_nowait(item["event"])
        elif item.get("type") in ("result", "pong") and msg_id in self.results:
            future = self.results.pop(msg_id)
            if not future.done():
                future.set_result(item)

    async def command(self, msg_type: str, timeout: float = 30, **fields: Any) -> Any:
        """Send one command and return its result (raises on success=false)."""
        msg_id = self.next_id
        self.next_id += 1
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.results[msg_id] = future
        if self.closed_reason:
            raise HactlError(self.closed_reason)
        await self.ws.send_json({"id": msg_id, "type": msg_type, **fields})
        try:
            reply = await asyncio.wait_for(future, timeout)
        except TimeoutError as err:
            raise HactlError(f"websocket {msg_type}: no answer within {timeout}s") from err
        if reply.get("type") == "pong":
            return None
        if not reply.get("success"):
            raise HactlError(f"websocket {msg_type}: {reply.get('error')}")
        return reply.get("result")

    async def subscribe(self, msg_type: str, **fields: Any) -> asyncio.Queue[dict[str, Any]]:
        """Start a subscription; events arrive on the returned queue.

        The queue is registered before the command is sent, so no event can
        be lost between the subscription's result and the first read.
        """
        msg_id = self.next_id
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.events[msg_id] = queue
        await self.command(msg_type, **fields)
        return queue


async def next_event(
    queue: asyncio.Queue[dict[str, Any]], deadline: float
) -> dict[str, Any] | None:
    """The next event, or None once the deadline (time.monotonic) passed."""
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        return None
    try:
        event = await asyncio.wait_for(queue.get(), remaining)
    except TimeoutError:
        return None
    if event.get("type") == "closed":
        raise HactlError("websocket closed while waiting")
    return event


async def ha_version(rest: Rest) -> tuple[int, ...]:
    """Home Assistant's release as a tuple, e.g. (2024, 3, 3); () if unknown."""
    version = str((await rest.get("/api/config")).get("version", ""))
    return tuple(int(n) for n in re.findall(r"\d+", version)[:3])


async def wait_for_entity_condition(
    session: aiohttp.ClientSession,
    args: argparse.Namespace,
    entity_id: str,
    matches: Callable[[dict[str, Any] | None], bool],
    describe: str,
) -> dict[str, Any]:
    """Wait until matches(state of entity_id) holds; return that state."""
    states = await wait_for_entities_condition(session, args, [entity_id], matches, describe)
    return states[entity_id]


async def wait_for_entities_condition(
    session: aiohttp.ClientSession,
    args: argparse.Namespace,
    entity_ids: list[str],
    matches: Callable[[dict[str, Any] | None], bool],
    describe: str,
) -> dict[str, Any]:
    """Wait until matches(state) holds for every entity at once; return {entity_id: state}.

    Subscribes to state_changed first and reads the current states second (all in one request), so a change that
    happens in between is seen either way; a state that matched and changed again is waited for again.
    """
    rest = Rest(session, args.url, args.token)
    deadline = time.monotonic() + args.timeout
    async with WebSocket.connect(session, args.url, args.token) as ws:
        queue = await ws.subscribe("subscribe_events", event_type="state_changed")
        wanted = set(entity_ids)
        states = {s["entity_id"]: s for s in await rest.get("/api/states") if s.get("entity_id") in wanted}
        while not all(matches(states.get(entity)) for entity in wanted):
            event = await next_event(queue, deadline)
            if event is None:
                left = sorted(e for e in wanted if not matches(states.get(e)))
                raise HactlTimeout(
                    f"timed out after {args.timeout}s waiting for {len(left)} of {len(wanted)} entities {describe}; "
                    + "last seen: "
                    + ", ".join(f"{e}: {json.dumps(states.get(e))}" for e in left[:20])
                )
            data = event.get("data", {})
            if data.get("entity_id") in wanted:
                states[data["entity_id"]] = data.get("new_state")
    return states


# --------------------------------------------------------------------------
# Subcommands


CONFIGURATION_YAML = """\
# Written by scripts/homeassistant/hactl.py configure for the gatt2mqtt
# Home Assistant integration test. Deliberately minimal (no default_config)
# so that a start on a small CI machine takes seconds.
homeassistant:
  name: gatt2mqtt test
  unit_system: metric
  time_zone: UTC
  # A fixed location, country, currency and language: nothing to look up,
  # and no "please configure your country" style repair issues.
  latitude: 52.52
  longitude: 13.40
  elevation: 34
  country: DE
  currency: EUR
  language: en

http:
  server_host: 127.0.0.1
  server_port: {port}

# REST API (/api/states, /api/services, ...) and the websocket API.
api:
# Config entry flows (/api/config/config_entries/...), the automation
# editor endpoint (/api/config/automation/config/<id>) and the
# entity/device registry websocket commands.
config:
# repairs/list_issues over the websocket.
repairs:
# Owner user creation for a fresh instance.
onboarding:

automation: !include automations.yaml

logger:
  default: {log_level}
"""


async def cmd_configure(args: argparse.Namespace) -> Any:
    config_dir = Path(args.config_dir)
    config_dir.mkdir(parents=True, exist_ok=True)
    (config_dir / "configuration.yaml").write_text(
        CONFIGURATION_YAML.format(port=args.port, log_level=args.log_level)
    )
    automations = config_dir / "automations.yaml"
    if not automations.exists():
        automations.write_text("[]\n")
    return {
        "config_dir": str(config_dir.resolve()),
        "url": f"http://127.0.0.1:{args.port}",
        "log_file": str((config_dir / "home-assistant.log").resolve()),
    }


# Run by the venv's interpreter (which is hactl's own): does hass_nabucasa
# import the way Home Assistant's http component imports it?
NABUCASA_PROBE = """
try:
    from hass_nabucasa import remote
except ImportError:
    pass  # Home Assistant copes with a missing hass_nabucasa
except Exception as err:
    print(f"{type(err).__name__}: {err}")
    raise SystemExit(1)
"""


async def diagnose_http_500() -> str | None:
    """Explain an HTTP 500 on every request, if it is the known venv defect.

    Home Assistant's http component (its forwarded middleware, up to at least
    2024.3) imports hass_nabucasa at the first request and only tolerates an
    ImportError. In a venv where that import fails otherwise (Home Assistant
    2024.3's acme 2.8.0 with josepy >= 2: "module 'josepy' has no attribute
    'ComparableX509'"), it retries on every request and every request,
    /api/onboarding included, ends in HTTP 500. hactl runs with the venv's
    interpreter, so it can reproduce the import itself.
    """
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        NABUCASA_PROBE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await proc.communicate()
    if proc.returncode == 0:
        return None
    lines = output.decode(errors="replace").strip().splitlines() or ["(no output)"]
    return (
        "Home Assistant answers every request with HTTP 500 because its http component "
        f"cannot import hass_nabucasa in this venv ({sys.prefix}): {lines[-1]}"
        + (
            " (acme needs josepy < 2 there: reinstall the venv with josepy<2)"
            if "ComparableX509" in lines[-1]
            else ""
        )
    )


async def wait_for_api(
    session: aiohttp.ClientSession, url: str, deadline: float
) -> list[dict[str, Any]]:
    """Poll the unauthenticated onboarding status until hass answers it."""
    last_error = "no attempt"
    diagnosed = False
    while True:
        try:
            async with session.get(
                url + "/api/onboarding", timeout=aiohttp.ClientTimeout(total=5)
            ) as resp:
                if resp.status == 200:
                    steps: list[dict[str, Any]] = await resp.json()
                    return steps
                body = (await resp.text()).strip().replace("\n", " ")
                last_error = f"HTTP {resp.status}: {body[:200]}"
                if resp.status == 500 and not diagnosed:
                    diagnosed = True
                    if reason := await diagnose_http_500():
                        raise HactlError(reason)
        except (aiohttp.ClientError, TimeoutError) as err:
            last_error = str(err) or type(err).__name__
        if time.monotonic() >= deadline:
            raise HactlTimeout(f"Home Assistant API at {url} did not answer: {last_error}")
        await asyncio.sleep(0.25)


async def token_from_code(
    session: aiohttp.ClientSession, url: str, client_id: str, code: str
) -> dict[str, Any]:
    async with session.post(
        url + "/auth/token",
        data={"grant_type": "authorization_code", "code": code, "client_id": client_id},
        timeout=HTTP_TIMEOUT,
    ) as resp:
        body = await resp.text()
        if resp.status != 200:
            raise HactlError(f"/auth/token -> HTTP {resp.status}: {body[:500]}")
        tokens: dict[str, Any] = json.loads(body)
        return tokens


async def login(
    session: aiohttp.ClientSession, url: str, client_id: str, username: str, password: str
) -> str:
    """Log in through the login flow (when the user exists already)."""
    rest = Rest(session, url, None)
    flow = await rest.post(
        "/auth/login_flow",
        {"client_id": client_id, "handler": ["homeassistant", None], "redirect_uri": client_id},
    )
    result = await rest.post(
        f"/auth/login_flow/{flow['flow_id']}",
        {"client_id": client_id, "username": username, "password": password},
    )
    if result.get("type") != "create_entry":
        raise HactlError(f"login as {username!r} failed: {result.get('errors') or result}")
    return str(result["result"])


async def cmd_onboard(args: argparse.Namespace) -> Any:
    url = args.url.rstrip("/")
    client_id = url + "/"
    started = time.monotonic()
    deadline = started + args.wait_seconds
    async with aiohttp.ClientSession() as session:
        steps = await wait_for_api(session, url, deadline)
        api_seconds = time.monotonic() - started
        done = {s["step"] for s in steps if s["done"]}
        rest = Rest(session, url, None)
        if "user" not in done:
            created = await rest.post(
                "/api/onboarding/users",
                {
                    "client_id": client_id,
                    "name": args.username,
                    "username": args.username,
                    "password": args.password,
                    "language": "en",
                },
            )
            code = created["auth_code"]
            user_created = True
        else:
            code = await login(session, url, client_id, args.username, args.password)
            user_created = False
        access = (await token_from_code(session, url, client_id, code))["access_token"]
        rest.token = access

        # The remaining steps only record "done", except core_config, which
        # would start the google_translate, met, radio_browser and
        # shopping_list integrations (PyPI installs and internet lookups).
        # An instance with core_config pending works normally for the API.
        if "analytics" not in done:
            await rest.post("/api/onboarding/analytics", {})
        if "integration" not in done:
            await rest.post(
                "/api/onboarding/integration",
                {"client_id": client_id, "redirect_uri": client_id + "?auth_callback=1"},
            )

        # Later subcommands expect a fully started instance.
        state = None
        while True:
            state = (await rest.get("/api/config")).get("state")
            if state == "RUNNING":
                break
            if time.monotonic() >= deadline:
                raise HactlTimeout(f"Home Assistant did not reach RUNNING (state {state})")
            await asyncio.sleep(0.25)

        async with WebSocket.connect(session, url, access) as ws:
            token = await ws.command(
                "auth/long_lived_access_token",
                client_name=f"hactl {time.strftime('%Y-%m-%dT%H:%M:%S')} {os.getpid()}",
                lifespan=3650,
            )
        steps = await rest.get("/api/onboarding")
    return {
        "token": token,
        "user_created": user_created,
        "onboarding": {s["step"]: s["done"] for s in steps},
        "api_seconds": round(api_seconds, 2),
        "running_seconds": round(time.monotonic() - started, 2),
    }


async def mqtt_entries(rest: Rest) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = await rest.get("/api/config/config_entries/entry?domain=mqtt")
    return entries


async def cmd_add_mqtt(args: argparse.Namespace) -> Any:
    async with aiohttp.ClientSession() as session:
        rest = Rest(session, args.url, args.token)
        deadline = time.monotonic() + args.timeout
        if not await mqtt_entries(rest):
            result = await rest.post("/api/config/config_entries/flow", {"handler": "mqtt"})
            # Answer whatever the flow asks. Without a Supervisor the 2026.2
            # flow goes straight to the "broker" form; with one, a menu
            # (addon/broker) comes first.
            for _ in range(10):
                kind = result.get("type")
                flow_path = f"/api/config/config_entries/flow/{result.get('flow_id')}"
                if kind == "create_entry":
                    break
                if kind == "menu":
                    if "broker" not in result.get("menu_options", []):
                        raise HactlError(f"mqtt config flow: unexpected menu {result}")
                    result = await rest.post(flow_path, {"next_step_id": "broker"})
                elif kind == "form" and result.get("step_id") == "broker":
                    if result.get("errors"):
                        raise HactlError(
                            f"mqtt config flow: broker step failed: {result['errors']}"
                        )
                    result = await rest.post(flow_path, {"broker": args.broker, "port": args.port})
                    if result.get("type") == "form" and result.get("errors"):
                        raise HactlError(
                            f"mqtt config flow: broker step failed: {result['errors']}"
                        )
                elif kind == "abort":
                    raise HactlError(f"mqtt config flow aborted: {result.get('reason')}")
                else:
                    raise HactlError(f"mqtt config flow: unexpected step {result}")
            else:
                raise HactlError(f"mqtt config flow did not finish: {result}")
        while True:
            entries = await mqtt_entries(rest)
            if entries and entries[0].get("state") == "loaded":
                return entries[0]
            if time.monotonic() >= deadline:
                raise HactlTimeout(f"mqtt config entry not loaded after {args.timeout}s: {entries}")
            await asyncio.sleep(0.25)


async def cmd_states(args: argparse.Namespace) -> Any:
    async with aiohttp.ClientSession() as session:
        states = await Rest(session, args.url, args.token).get("/api/states")
    return sorted(
        (s for s in states if s["entity_id"].startswith(args.prefix)),
        key=lambda s: s["entity_id"],
    )


async def cmd_wait_state(args: argparse.Namespace) -> Any:
    def matches(state: dict[str, Any] | None) -> bool:
        is_equal = state is not None and state.get("state") == args.state
        return state is not None and (is_equal != args.negate)

    describe = f"state {'!=' if args.negate else '=='} {args.state!r}"
    async with aiohttp.ClientSession() as session:
        states = await wait_for_entities_condition(session, args, args.entity, matches, describe)
    return states[args.entity[0]] if len(args.entity) == 1 else states


async def cmd_wait_gone(args: argparse.Namespace) -> Any:
    deadline = time.monotonic() + args.timeout
    async with aiohttp.ClientSession() as session:
        async with WebSocket.connect(session, args.url, args.token) as ws:
            # Subscribed before the first look, so a removal in between is seen either way.
            queue = await ws.subscribe("subscribe_events", event_type="entity_registry_updated")
            while True:
                entities = await ws.command("config/entity_registry/list")
                left = [
                    e["entity_id"]
                    for e in entities
                    if e.get("platform") == "mqtt" and str(e.get("unique_id", "")).startswith(args.unique_id_prefix)
                ]
                if not left:
                    return {"gone": True}
                if await next_event(queue, deadline) is None:
                    raise HactlTimeout(f"timed out after {args.timeout}s; still registered: {left}")


async def cmd_call(args: argparse.Namespace) -> Any:
    try:
        data = json.loads(args.data)
    except ValueError as err:
        raise HactlError(f"--data is not JSON: {err}") from err
    async with aiohttp.ClientSession() as session:
        if not args.return_response:
            path = f"/api/services/{args.domain}/{args.service}"
            return await Rest(session, args.url, args.token).post(path, data)
        # The REST API learned ?return_response only in mid-2024 releases;
        # 2024.3 ignores the parameter (and the response). The websocket command
        # has it since 2023.7, so use that on every release and rebuild the
        # REST answer {"changed_states", "service_response"} from it.
        async with WebSocket.connect(session, args.url, args.token) as ws:
            queue = await ws.subscribe("subscribe_events", event_type="state_changed")
            result = await ws.command(
                "call_service",
                domain=args.domain,
                service=args.service,
                service_data=data,
                return_response=True,
            )
            # Events of the call precede its result on the connection; a
            # round trip also flushes any that hass forwarded a bit later.
            await ws.command("ping")
            context_id = (result.get("context") or {}).get("id")
            changed_states: list[dict[str, Any]] = []
            while not queue.empty():
                event_data = queue.get_nowait().get("data") or {}
                new_state = event_data.get("new_state")
                if new_state and (new_state.get("context") or {}).get("id") == context_id:
                    changed_states.append(new_state)
        return {"changed_states": changed_states, "service_response": result.get("response")}


ENTITY_FIELDS = (
    "entity_id",
    "unique_id",
    "platform",
    "entity_category",
    "device_id",
    "config_entry_id",
    "original_name",
    "name",
    "has_entity_name",
    "disabled_by",
    "hidden_by",
)
DEVICE_FIELDS = (
    "id",
    "name",
    "name_by_user",
    "manufacturer",
    "model",
    "model_id",
    "sw_version",
    "hw_version",
    "serial_number",
    "identifiers",
    "connections",
    "via_device_id",
    "configuration_url",
    "config_entries",
    "entry_type",
    "disabled_by",
)


async def cmd_registry(args: argparse.Namespace) -> Any:
    async with aiohttp.ClientSession() as session:
        mqtt_entry_ids = {
            e["entry_id"] for e in await mqtt_entries(Rest(session, args.url, args.token))
        }
        async with WebSocket.connect(session, args.url, args.token) as ws:
            entities = await ws.command("config/entity_registry/list")
            devices = await ws.command("config/device_registry/list")
    entities = [e for e in entities if e.get("platform") == "mqtt"]
    # Devices of the MQTT entry: also those that only have device triggers
    # (no entity), and the gateway that is only referenced as via_device.
    device_ids = {e["device_id"] for e in entities if e.get("device_id")}
    devices = [
        d
        for d in devices
        if d["id"] in device_ids or mqtt_entry_ids & set(d.get("config_entries", []))
    ]
    return {
        "entities": sorted(
            ({k: e.get(k) for k in ENTITY_FIELDS} for e in entities), key=lambda e: e["entity_id"]
        ),
        "devices": sorted(
            ({k: d.get(k) for k in DEVICE_FIELDS} for d in devices), key=lambda d: d["name"] or ""
        ),
    }


async def cmd_rename_entity(args: argparse.Namespace) -> Any:
    """What a user does on an entity's settings page: give it another entity id."""
    async with (
        aiohttp.ClientSession() as session,
        WebSocket.connect(session, args.url, args.token) as ws,
    ):
        return await ws.command(
            "config/entity_registry/update", entity_id=args.entity, new_entity_id=args.to
        )


async def cmd_repairs(args: argparse.Namespace) -> Any:
    async with (
        aiohttp.ClientSession() as session,
        WebSocket.connect(session, args.url, args.token) as ws,
    ):
        result = await ws.command("repairs/list_issues")
    issues: list[dict[str, Any]] = result["issues"]
    return issues


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


async def find_device(ws: WebSocket, identifier: str) -> dict[str, Any]:
    devices = await ws.command("config/device_registry/list")
    found = [
        d
        for d in devices
        if any(len(i) == 2 and i[1] == identifier for i in d.get("identifiers", []))
    ]
    if len(found) != 1:
        known = sorted({i[1] for d in devices for i in d.get("identifiers", []) if len(i) == 2})
        raise HactlError(
            f"{len(found)} devices have identifier {identifier!r} (known identifiers: {known})"
        )
    device: dict[str, Any] = found[0]
    return device


async def cmd_add_trigger_automation(args: argparse.Namespace) -> Any:
    automation_id = args.id or slug(f"hactl {args.type} {args.subtype}")
    deadline = time.monotonic() + args.timeout
    async with aiohttp.ClientSession() as session:
        rest = Rest(session, args.url, args.token)
        async with WebSocket.connect(session, args.url, args.token) as ws:
            # Ask Home Assistant which triggers the device offers instead of
            # composing one: that is what the automation editor does, and it
            # also proves the device_automation discovery config was accepted.
            # Discovery may still be in flight, so retry until the deadline.
            while True:
                try:
                    device = await find_device(ws, args.device_identifier)
                except HactlError as err:
                    if time.monotonic() >= deadline:
                        raise HactlTimeout(str(err)) from err
                    await asyncio.sleep(0.25)
                    continue
                triggers = await ws.command(
                    "device_automation/trigger/list", device_id=device["id"]
                )
                wanted = [
                    t
                    for t in triggers
                    if t.get("domain") == "mqtt"
                    and t.get("type") == args.type
                    and t.get("subtype") == args.subtype
                ]
                if wanted:
                    break
                if time.monotonic() >= deadline:
                    raise HactlTimeout(
                        f"device {device['name']!r} has no mqtt trigger "
                        f"{args.type}/{args.subtype}; it offers: {triggers}"
                    )
                await asyncio.sleep(0.25)
        trigger = dict(wanted[0])
        # 2024.10 renamed the keys to the plural; older releases reject it
        # ("extra keys not allowed @ data['triggers']"). Newer ones still
        # accept the singular, but write what the release's own editor does.
        plural = await ha_version(rest) >= (2024, 10)
        config = {
            "alias": f"hactl {args.type} {args.subtype}",
            "description": f"Created by hactl.py for device {args.device_identifier}",
            "triggers" if plural else "trigger": [trigger],
            "conditions" if plural else "condition": [],
            "actions" if plural else "action": [
                {
                    "event": TRIGGERED_EVENT,
                    "event_data": {
                        "automation_id": automation_id,
                        "type": args.type,
                        "subtype": args.subtype,
                        "payload": "{{ trigger.payload }}",
                    },
                }
            ],
            # Count every press, even ones that arrive back to back.
            "mode": "queued",
        }
        await rest.post(f"/api/config/automation/config/{automation_id}", config)
        # The POST only schedules the reload; wait for the entity to appear.
        while True:
            states = await rest.get("/api/states")
            mine = [
                s
                for s in states
                if s["entity_id"].startswith("automation.")
                and s["attributes"].get("id") == automation_id
            ]
            if mine and mine[0]["state"] == "on":
                break
            if time.monotonic() >= deadline:
                raise HactlTimeout(f"automation {automation_id} did not become active: {mine}")
            await asyncio.sleep(0.25)
    return {
        "automation": mine[0]["entity_id"],
        "id": automation_id,
        "device_id": device["id"],
        "trigger": trigger,
        "event": TRIGGERED_EVENT,
    }


def parse_time(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text)
    except ValueError as err:
        raise HactlError(f"not an ISO 8601 time: {text!r}") from err


async def cmd_wait_triggered(args: argparse.Namespace) -> Any:
    after = parse_time(args.after) if args.after else None

    def matches(state: dict[str, Any] | None) -> bool:
        last = (state or {}).get("attributes", {}).get("last_triggered")
        return last is not None and (after is None or parse_time(last) > after)

    describe = "to trigger" + (f" after {args.after}" if args.after else "")
    async with aiohttp.ClientSession() as session:
        return await wait_for_entity_condition(session, args, args.automation, matches, describe)


# --------------------------------------------------------------------------
# Command line


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hactl.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="SUBCOMMAND")

    def command(
        name: str,
        func: Callable[[argparse.Namespace], Awaitable[Any]],
        *,
        connect: bool = True,
        auth: bool = True,
    ) -> argparse.ArgumentParser:
        p = sub.add_parser(name)
        p.set_defaults(func=func)
        if connect:
            url = os.environ.get("HACTL_URL")
            p.add_argument(
                "--url",
                default=url,
                required=url is None,
                help="e.g. http://127.0.0.1:8123 ($HACTL_URL)",
            )
        if auth:
            token = os.environ.get("HACTL_TOKEN")
            p.add_argument(
                "--token", default=token, required=token is None, help="access token ($HACTL_TOKEN)"
            )
        return p

    p = command("configure", cmd_configure, connect=False, auth=False)
    p.add_argument("config_dir")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--log-level", default="info")

    p = command("onboard", cmd_onboard, auth=False)
    p.add_argument("--wait-seconds", type=float, default=180)
    p.add_argument("--username", default="gatt2mqtt")
    p.add_argument("--password", default="gatt2mqtt-test-password")

    p = command("add-mqtt", cmd_add_mqtt)
    p.add_argument("--broker", required=True)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--timeout", type=float, default=60)

    p = command("states", cmd_states)
    p.add_argument("--prefix", default="")

    p = command("wait-state", cmd_wait_state)
    p.add_argument("--entity", required=True, action="append")
    p.add_argument("--state", required=True)
    p.add_argument("--not", dest="negate", action="store_true")
    p.add_argument("--timeout", type=float, default=60)

    p = command("wait-gone", cmd_wait_gone)
    p.add_argument("--unique-id-prefix", required=True)
    p.add_argument("--timeout", type=float, default=60)

    p = command("call", cmd_call)
    p.add_argument("domain")
    p.add_argument("service")
    p.add_argument("--data", default="{}")
    p.add_argument("--return-response", action="store_true")

    command("registry", cmd_registry)
    p = command("rename-entity", cmd_rename_entity)
    p.add_argument("--entity", required=True)
    p.add_argument("--to", required=True)
    command("repairs", cmd_repairs)

    p = command("add-trigger-automation", cmd_add_trigger_automation)
    p.add_argument("--device-identifier", required=True)
    p.add_argument("--type", required=True)
    p.add_argument("--subtype", required=True)
    p.add_argument("--id", help="automation config id (default: hactl_<type>_<subtype>)")
    p.add_argument("--timeout", type=float, default=60)

    p = command("wait-triggered", cmd_wait_triggered)
    p.add_argument("--automation", required=True)
    p.add_argument("--after", help="ISO 8601 time last_triggered must be later than")
    p.add_argument("--timeout", type=float, default=30)
    return parser


def main() -> int:
    args = build_parser().parse_args()
    try:
        result = asyncio.run(args.func(args))
    except HactlError as err:
        print(f"hactl: {args.command}: {err}", file=sys.stderr)
        return err.exit_code
    except (aiohttp.ClientError, TimeoutError, OSError) as err:
        print(f"hactl: {args.command}: {str(err) or type(err).__name__}", file=sys.stderr)
        return EXIT_ERROR
    json.dump(result, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
