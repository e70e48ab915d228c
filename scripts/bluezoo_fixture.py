#!/usr/bin/env python3
"""gatt2mqtt test fixture: BlueZoo 1.0.2 with run-time fidelity fixes.

Starts BlueZoo (PyPI ``bluezoo==1.0.2``, the BlueZ D-Bus stand-in) with the
same command line as the ``bluezoo`` CLI (``--auto-enable``,
``--scan-interval N``, ``-a ADDR`` repeatable, ``-v``/``-q``,
``--bus-session``), after monkeypatching the gaps that break the bridge's
reconnect and fault tests. Nothing in site-packages is edited. Every fix moves
BlueZoo toward what bluetoothd does; none is there to please one client.

Prints ``bluezoo-fixture: ready`` on stdout once org.bluez is owned and the
adapters are exported (and powered, with --auto-enable). SIGTERM/SIGINT shut it
down and exit with status 0.

Usage: python3 scripts/bluezoo_fixture.py --auto-enable --scan-interval 1 \\
           -a 00:11:22:33:44:55 -a 00:AA:BB:CC:DD:EE

The patches reach into BlueZoo internals, hence the hard version pin below.
"""

import asyncio
import random
import select
import signal
import socket
import sys
from importlib.metadata import PackageNotFoundError, version
from types import SimpleNamespace

REQUIRED_BLUEZOO = "1.0.2"

try:
    _found = version("bluezoo")
except PackageNotFoundError:
    _found = None
if _found != REQUIRED_BLUEZOO:
    sys.exit(f"bluezoo-fixture: needs bluezoo=={REQUIRED_BLUEZOO}, found {_found or 'none'}")

import sdbus  # noqa: E402  (BlueZoo's D-Bus binding, pinned with it)
from bluezoo import bluezoo as bz  # noqa: E402
from bluezoo import events  # noqa: E402
from bluezoo.adapter import Adapter  # noqa: E402
from bluezoo.device import Device  # noqa: E402
from bluezoo.exceptions import (DBusBluezAlreadyExistsError,  # noqa: E402
                                DBusBluezAuthenticationFailedError, DBusBluezFailedError,
                                DBusBluezInProgressError, DBusBluezNotPermittedError,
                                DBusBluezNotReadyError, DBusBluezNotSupportedError)
from bluezoo.gatt import characteristic as gatt_characteristic  # noqa: E402
from bluezoo.gatt import (GattApplicationClient, GattCharacteristicClient,  # noqa: E402
                          GattCharacteristicClientLink, GattDescriptorClient, GattManager,
                          GattServiceClient)
from bluezoo.interfaces.GattCharacteristic import GattCharacteristicInterface  # noqa: E402
from bluezoo.log import logger  # noqa: E402
from bluezoo.utils import (DBusClientMixin, create_background_task,  # noqa: E402
                          dbus_method_async_except_logging)

# Device1.Disconnected(reason, message): the reason names newer bluetoothd
# sends for the kernel's disconnect reasons (the message is free text).
REASONS = {
    "local": ("org.bluez.Reason.Local", "Connection terminated by local host"),
    "remote": ("org.bluez.Reason.Remote", "Connection terminated by remote user"),
    "timeout": ("org.bluez.Reason.Timeout", "Connection timed out"),
}


_exiting = False  # set on SIGTERM/SIGINT
_signals = None  # the exported Signals object (kept alive here)


def _counterpart(dev):
    """The other side's Device object: the device that represents our adapter on the peer adapter."""
    peer = dev.peer_adapter
    return peer.devices.get(f"{peer.get_object_path()}/dev_{dev.adapter.address.replace(':', '_')}")


class _FdRelay:
    """A socketpair of our own between the central and the app's fd, as bluetoothd does.

    bluetoothd never passes the app's fd through: it hands the central one end
    of its own SOCK_SEQPACKET socketpair and moves packets itself. So the app
    gets EOF when the central closes its fd, and both get HUP/EOF when the link
    drops.
    """

    def __init__(self, app_fd: int, kind: str):
        self.kind = kind  # "AcquireNotify" or "AcquireWrite"
        self.app = socket.socket(fileno=app_fd)
        self.ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.central_fd = theirs.detach()
        loop = asyncio.get_running_loop()
        for src, dst in ((self.app, self.ours), (self.ours, self.app)):
            src.setblocking(False)
            loop.add_reader(src, self._pump, src, dst)

    def _pump(self, src, dst):
        try:
            data = src.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            return self.close()
        if not data and _hung_up(src.fileno()):
            return self.close()
        try:
            dst.send(data)
        except BlockingIOError:
            pass  # the reader is not keeping up: the packet is dropped
        except OSError:
            self.close()

    def close(self):
        loop = asyncio.get_running_loop()
        for s in (self.app, self.ours):
            if s.fileno() >= 0:
                loop.remove_reader(s)
                s.close()

    @property
    def open(self) -> bool:
        return self.app.fileno() >= 0


def _hung_up(fd) -> bool:
    """Whether an empty read means the peer has gone: on a SOCK_SEQPACKET socket it may also be an
    empty packet (a notification without bytes), which the poll tells apart by the missing hang-up."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return any(events & (select.POLLHUP | select.POLLERR | select.POLLNVAL) for _, events in poller.poll(0))


def _notify_relay(link):
    """The link's AcquireNotify fd still open (bluetoothd's chrc->notify_io), or None."""
    return next((r for r in getattr(link, "relays", []) if r.kind == "AcquireNotify" and r.open), None)


class _AppNotify:
    """The app side of one app characteristic's notifications, shared by every link to it.

    bluetoothd's gatt-database counts the devices that enabled the CCC
    (external_chrc.ntfy_cnt): the first makes it call the app's AcquireNotify
    (if the app has a NotifyAcquired property; StartNotify if that fails) or
    StartNotify, the last one leaving makes it close that fd or call
    StopNotify. The app's replies are ignored ("best effort"), and what the
    app sends goes to every subscribed device.
    """

    def __init__(self, client):
        self.client = client
        self.links = set()  # links (central devices) with at least one notify session
        self.file = None  # the app's AcquireNotify fd, while used
        self.mtu = 0

    @classmethod
    def of(cls, client) -> "_AppNotify":
        if (state := getattr(client, "app_notify", None)) is None:
            state = client.app_notify = cls(client)
        return state

    async def add(self, link):
        """A link's first session: StartNotify/AcquireNotify on the app if it is the first link."""
        self.links.add(link)
        if len(self.links) > 1:
            if self.file is None:
                self._follow(link)
            return
        if self.client.NotifyAcquired.get() is not None:
            options = link._GattCharacteristicClientLink__prepare_options({})
            try:
                fd, self.mtu = await asyncio.wait_for(self.client.AcquireNotify(options), 2)
            except Exception as e:
                logger.info(f"AcquireNotify on app {self.client.get_object_path()}: {e}; trying StartNotify")
            else:
                self._read(fd)
                return
        for each in self.links:
            self._follow(each)
        try:
            await asyncio.wait_for(self.client.StartNotify(), 2)
        except Exception as e:
            logger.info(f"StartNotify on app {self.client.get_object_path()}: {e} (ignored, as bluetoothd does)")

    async def remove(self, link, stop_app: bool):
        """A link's last session is gone: StopNotify (or close the fd) if no other link has one.

        A link without sessions also sends StopNotify to an app that still
        reports Notifying (subscribed by a CCCD write BlueZoo does not track).
        """
        link.client_props_changed_subscription.unsubscribe()
        link.client_props_changed_subscription = events.Subscription()
        had = link in self.links
        self.links.discard(link)
        if self.links:
            return
        if self.file is not None:
            self._close()
        elif stop_app and (had or self.client.Notifying.get(False)):
            try:
                await asyncio.wait_for(self.client.StopNotify(), 2)
            except Exception as e:
                logger.debug(f"StopNotify on app {self.client.get_object_path()}: {e}")

    def _follow(self, link):
        """Forward the app's Value changes (PropertiesChanged) to the link."""
        async def on_properties_changed(properties):
            if "Value" in properties:
                await link.Value.set_async(properties["Value"])
                await link.client.Confirm()  # sent on only for indications (fix_indication_confirm)

        link.client_props_changed_subscription.unsubscribe()
        link.client_props_changed_subscription = events.Subscription(
            events.subscribe(f"properties:changed:{id(self.client)}", on_properties_changed))

    def _read(self, fd):
        """Read the app's AcquireNotify fd (ours: see fix_p1_acquired_fds) for every link."""
        self.file = open(fd, "r+b", buffering=0)

        def reader():
            try:
                data = self.file.read(max(self.mtu, 512))
            except OSError:
                return self._close()
            if data is None:
                return  # nothing after all
            if not data and _hung_up(self.file.fileno()):
                return self._close()  # the app closed its end
            for link in list(self.links):
                create_background_task(link.Value.set_async(data))
            if "indicate" in self.client.Flags.get([]):
                self.file.write(b"\x01")  # confirm the indication through the fd

        asyncio.get_running_loop().add_reader(self.file, reader)

    def _close(self):
        if self.file is not None:
            asyncio.get_running_loop().remove_reader(self.file)
            self.file.close()
            self.file = None


async def _release_characteristic(link, stop_notify: bool):
    """End the link's notify sessions and close every fd it handed out or holds."""
    sessions = getattr(link, "notify_sessions", {})
    for session in sessions.values():
        session.unsubscribe()
    sessions.clear()  # no Notifying=false: the object goes away with the link
    await _AppNotify.of(link.client).remove(link, stop_app=stop_notify)
    loop = asyncio.get_running_loop()
    if link.f_read is not None:
        loop.remove_reader(link.f_read)
    for f in (link.f_read, link.f_write):
        if f is not None:
            f.close()
    link.f_read = link.f_write = None
    for relay in getattr(link, "relays", []):
        relay.close()
    link.relays = []


def fix_p1_disconnect():
    """P1: a disconnect tears down the link on both sides, as bluetoothd does.

    bluetoothd on link loss: ServicesResolved=false, then Connected=false, on
    both ends; Device1.Disconnected(reason, message) (added after 5.66, whose
    binary lacks it; clients that do not know it ignore it); the peripheral's
    notify sessions end (gatt-database.c clears the CCC state of an unbonded
    client, which sends StopNotify to the app); acquired fds get HUP. The GATT
    objects are removed (InterfacesRemoved), as bluetoothd does with
    [GATT] Cache=no, or Cache=yes for an unbonded device; with the default
    Cache=always it keeps them and fails calls with "Not connected". Stock
    BlueZoo only flips Connected and keeps forwarding calls to the app.
    """
    async def tear_down(dev, why):
        logger.info(f"Disconnecting {dev} on {dev.adapter} ({why})")
        for link in reversed(list(dev.services.values())):  # children first
            if isinstance(link, GattCharacteristicClientLink):
                # No StopNotify to an app that is gone, nor while bluetoothd itself exits.
                await _release_characteristic(link, stop_notify=why != "timeout" and not _exiting)
            dev.adapter.mock.remove_object(link)
        dev.services.clear()
        if dev.services_resolved:
            await dev.ServicesResolved.set_async(False)
        await dev.Connected.set_async(False)
        dev.Disconnected.emit(REASONS[why])

    async def disconnect(self, uuid=None, reason="local"):
        self.connecting_task.cancel()
        other = _counterpart(self)
        for dev, why in ((self, reason), (other, "remote" if reason == "local" else reason)):
            if dev is None:
                continue
            # One teardown a link: an app leaving the bus (P3), a test dropping the link and the central's own
            # Disconnect can all come while the first awaits; each went through the same links, and the second
            # removal of one raised KeyError, which left the gone app registered. Later callers wait for it.
            ongoing = getattr(dev, "teardown", None)
            if ongoing is not None and not ongoing.done():
                await asyncio.shield(ongoing)
                continue
            if not dev.connected:
                continue  # bluetoothd 5.66 replies success on a disconnected device
            dev.teardown = asyncio.ensure_future(tear_down(dev, why))
            await asyncio.shield(dev.teardown)

    Device.disconnect = disconnect


def fix_p1_acquired_fds():
    """P1: AcquireNotify/AcquireWrite hand out bluetoothd-owned fds (see _FdRelay).

    Stock BlueZoo passes the app's fd through and keeps a copy, so the app
    never sees EOF. The relay is closed when the central closes its end or the
    link drops (fix_p1_disconnect), which gives the app EOF.

    Where BlueZoo itself acquires the app's fd (StartNotify/WriteValue on an
    app with NotifyAcquired/WriteAcquired) it wraps an os.dup() of an fd that
    sdbus already handed over to it, leaking the original; wrapping the fd
    itself lets closing the file close the app's socket.
    """
    gatt_characteristic.os = SimpleNamespace(dup=lambda fd: fd)
    for name in ("AcquireNotify", "AcquireWrite"):
        member = GattCharacteristicClientLink.__dict__[name]  # the exported DbusMethodAsync
        stock = member.original_method

        async def acquire(self, options, _stock=stock, _name=name):
            fd, mtu = await _stock(self, options)
            try:
                relay = _FdRelay(fd, _name)
            except OSError:
                return fd, mtu  # not a socket: keep the stock pass-through
            self.relays = [r for r in getattr(self, "relays", []) if r.open] + [relay]
            # Our copy of the central's end is closed right after the reply is sent.
            asyncio.get_running_loop().call_soon(socket.close, relay.central_fd)
            return relay.central_fd, mtu

        member.original_method = acquire


def fix_p2_connect():
    """P2: Connect on a connected LE device succeeds without doing anything.

    bluetoothd 5.66 replies success to Connect when the LE link is already up
    (foundations.md 1.3). Stock BlueZoo re-exports the GATT objects and
    fails with EEXIST. After a disconnect the objects are gone (P1), so a new
    Connect exports them afresh.
    """
    stock = Device.connect

    async def connect(self, uuid=None):
        if not self.connecting_task.done():
            await asyncio.wait({self.connecting_task})  # a Connect already in flight
            return
        if self.connected:
            return
        await stock(self, uuid)

    Device.connect = connect


def fix_p3_app_gone():
    """P3: a GATT app that unregisters or leaves the bus drops its links, reason Timeout.

    For the bridge, a simulator process going away is a peripheral going out
    of range: bluetoothd then sees the supervision timeout and reports
    Disconnected("org.bluez.Reason.Timeout"). Stock BlueZoo only updates the
    peripheral adapter and leaves the central connected to stale objects.
    """
    name = "_GattManager__del_gatt_application"  # covers UnregisterApplication and NameOwnerChanged
    stock = getattr(GattManager, name)

    async def del_gatt_application(self, app):
        app_objects = set(map(id, app.objects.values()))
        try:
            for adapter in list(self.mock.adapters.values()):  # BlueZoo may remove one meanwhile (its exit)
                for dev in list(adapter.devices.values()):
                    if dev.connected and any(id(link.client) in app_objects for link in dev.services.values()):
                        await dev.disconnect(reason="timeout")
        finally:
            await stock(self, app)  # the app goes whatever its links did: kept, it refuses its successor

    setattr(GattManager, name, del_gatt_application)


def fix_p4_rescan():
    """P4: each scan round re-reports known devices through an RSSI change.

    While discovering, bluetoothd turns the advertising reports of a device it
    already knows into property updates (RSSI, sent when it moves), so a
    client's second scan sees the device again. BlueZoo has no radio, so each
    round draws an RSSI from -75..-45 dBm, or from the signal a test set for
    the adapter and the device (see Signals). Also: a second StartDiscovery no
    longer leaks the previous scan loop (bluetoothd runs one discovery).
    """
    rssi = Device.__dict__["RSSI"]
    rssi.setter_private(lambda self, value: setattr(self, "rssi", value))
    stock_add = Adapter.add_device

    async def add_device(self, device):
        heard = SIGNALS.get((self.address.upper(), device.address.upper()), (None, 0))
        if heard == OUT_OF_RANGE:
            return
        mean, sigma = heard
        device.rssi = random.randint(-75, -45) if mean is None else max(-127, min(20, round(random.gauss(mean, sigma))))
        path = f"{self.get_object_path()}/dev_{device.address.replace(':', '_')}"
        known = self.devices.get(path)
        await stock_add(self, device)
        if known is not None and known is not device and self.discovering:
            await known.RSSI.set_async(device.rssi)

    Adapter.add_device = add_device

    stock_task = bz.BluezMockService.create_discovering_task

    def create_discovering_task(self, id):
        self.adapters[id].discovering_task.cancel()
        return stock_task(self, id)

    bz.BluezMockService.create_discovering_task = create_discovering_task


# (adapter address, device address) -> (mean dBm, sigma dB), or OUT_OF_RANGE:
# what each of BlueZoo's radio-less adapters hears of each device, as a test set it.
SIGNALS = {}
OUT_OF_RANGE = ("out", "of range")


class Signals(sdbus.DbusInterfaceCommonAsync, interface_name="org.gatt2mqtt.Fixture1"):
    """The fixture's own control interface, at /org/gatt2mqtt/fixture: lets a test
    give each adapter its own view of a device, as several radios in one room
    have (a gateway with several adapters, a fleet of gateways)."""

    @sdbus.dbus_method_async(input_signature="ssny", input_args_names=["adapter", "device", "mean", "sigma"],
                             flags=sdbus.DbusUnprivilegedFlag)
    async def SetSignal(self, adapter: str, device: str, mean: int, sigma: int) -> None:
        SIGNALS[(adapter.upper(), device.upper())] = (mean, sigma)

    @sdbus.dbus_method_async(input_signature="ss", input_args_names=["adapter", "device"],
                             flags=sdbus.DbusUnprivilegedFlag)
    async def SetOutOfRange(self, adapter: str, device: str) -> None:
        SIGNALS[(adapter.upper(), device.upper())] = OUT_OF_RANGE


def fix_p5_manufacturer_data():
    """P5: Device1.ManufacturerData is a{qv} (company id -> ay), as in BlueZ.

    Stock declares a{sv}; a uint16 key then cannot be marshalled, which loses
    InterfacesAdded and makes GetManagedObjects fail for every client.
    """
    Device.__dict__["ManufacturerData"].property_signature = "a{qv}"


def fix_p7_pairing():
    """P7: Bonded reads back what was set; Pair() is Just Works, confirmed by the responder.

    bluetoothd pairs without an agent when no user interaction is needed
    (NoInputNoOutput, Just Works), sets Paired and Bonded, and answers a Pair()
    on a bonded device with org.bluez.Error.AlreadyExists (device.c
    pair_device). Stock BlueZoo writes self.bond (typo) and, with no agent,
    logs an AttributeError and returns success without pairing; with any other
    agent it raises NotImplementedError.

    The kernel never asks the initiator to confirm Just Works, but asks the
    responder's user space when the responder's IO capability (its default
    agent's) is not NoInputNoOutput (smp.c tk_request, JUST_CFM); bluetoothd
    then calls that agent's RequestAuthorization, and a refusal fails the
    initiator's Pair() with AuthenticationFailed. One BlueZoo serves both
    sides, so the responder's agent is the default one.
    """
    Device.__dict__["Bonded"].property_setter = lambda self, value: setattr(self, "bonded", value)

    async def pair(self):
        if self.paired:
            raise DBusBluezAlreadyExistsError("Already Exists")
        await self.peer_adapter.add_device(self.peer)
        agent = self.adapter.mock.root.agent
        if agent is not None and agent.capability != "NoInputNoOutput":
            logger.info(f"Pairing {self} with {self.adapter}: asking {agent} on the responder")
            try:
                await agent.RequestAuthorization(self.peer.get_object_path())
            except Exception as error:
                logger.info(f"Pairing {self} refused by the responder: {error}")
                raise DBusBluezAuthenticationFailedError("Authentication Failed")
        logger.info(f"Pairing {self} with {self.adapter} (Just Works)")
        self.peer.paired = self.peer.bonded = True
        await self.Paired.set_async(True)
        await self.Bonded.set_async(True)

    Device.pair = pair


def fix_agents():
    """Agents: one per client, not one in all; the default passes on when it leaves.

    bluetoothd refuses a second agent only from the client that already has
    one (agent.c register_agent). Stock BlueZoo's check loops over every
    client, so the second process to register (a peripheral's agent after a
    central's) gets AlreadyExists; and removing the default agent while others
    remain raises AttributeError (self.agent.values()).
    """
    from bluezoo.root import AgentClient, RootManager

    async def register_agent(self, path, capability):
        sender = sdbus.get_current_message().sender
        if sender in self.agents:
            raise DBusBluezAlreadyExistsError("Already Exists")

        async def on_sender_lost():
            await getattr(self, "_RootManager__del_agent")(agent)

        agent = AgentClient(sender, path, capability or "KeyboardDisplay", on_sender_lost)
        logger.info(f"Registering {agent}")
        if self.agent is None:
            self.agent = agent
        self.agents[sender] = agent
        for adapter in self.mock.adapters.values():
            if not adapter.pairable:
                create_background_task(adapter.Pairable.set_async(True))

    async def del_agent(self, agent):
        logger.info(f"Unregistering {agent}")
        self.agents.pop(agent.get_client(), None)
        if agent == self.agent:
            self.agent = list(self.agents.values())[-1] if self.agents else None
        await agent.cleanup()
        if self.agent is None:
            for adapter in self.mock.adapters.values():
                if adapter.pairable:
                    create_background_task(adapter.Pairable.set_async(False))

    RootManager.__dict__["RegisterAgent"].original_method = register_agent
    setattr(RootManager, "_RootManager__del_agent", del_agent)


def fix_indication_confirm():
    """Indications: Confirm() goes to the app only for "indicate" characteristics.

    bluetoothd calls the app's Confirm when the remote acknowledges an
    indication (ATT Handle Value Confirmation); notifications are never
    acknowledged. Stock BlueZoo calls it after every forwarded value.
    """
    proxy_confirm = GattCharacteristicInterface.Confirm

    async def confirm(self):
        if "indicate" in self.Flags.get([]):
            await proxy_confirm.__get__(self, type(self))()

    GattCharacteristicClient.Confirm = confirm


def fix_gatt_handles():
    """GATT handles are freed with their application and checked when it registers.

    bluetoothd's gatt-database removes an application's attributes from the
    local database when the app unregisters or leaves the bus, so the same app
    (a peripheral switched off and on, or restarted on a running bluetoothd)
    registers again with the same handles. Stock BlueZoo keeps them in
    gatt_handles for good: the re-registration raised "Handle 7 already exists"
    inside RegisterApplication, which was logged and answered OK with the app
    half registered and the adapter's UUIDs stale.

    A handle that is really taken (another registered app holds it, or the app
    repeats one) fails the whole registration, as bluetoothd's client_ready_cb
    does: org.bluez.Error.Failed("Failed to create entry in database"), and
    nothing of the app is kept. The same sender registering the same path
    twice gets org.bluez.Error.AlreadyExists (manager_register_app). Handles
    BlueZoo assigns itself skip the ones in use. Stock cleanup also left each
    removed app's NameOwnerChanged watch behind; when a client that had
    registered the same path more than once left the bus, a stale watch
    removed its current app without freeing anything. Those watches are
    dropped now, and a removal of an app no longer registered does nothing.
    """
    name = "_GattManager__del_gatt_application"  # UnregisterApplication, NameOwnerChanged, InterfacesRemoved
    stock_del = getattr(GattManager, name)

    async def del_gatt_application(self, app):
        if self.gatt_apps.get((app.get_client(), app.get_object_path())) is not app:
            return  # already removed: the same sender may have registered the same path again
        try:
            await stock_del(self, app)
        except Exception as error:
            # BlueZoo's events swallow a callback's exception: said here, or a kept app is a mystery.
            logger.error(f"Removing GATT application {app.get_object_path()} of {app.get_client()}: {error!r}")
            raise
        finally:  # the app has left gatt_apps: P3 calls the stock removal whatever its links did
            await DBusClientMixin.cleanup(app)  # stock cleanup leaves the app's bus watch behind
            self.gatt_handles.difference_update(app.handles)  # its objects may be gone by now

    setattr(GattManager, name, del_gatt_application)

    async def register_application(self, application: str, options: dict) -> None:
        sender = sdbus.get_current_message().sender
        logger.debug(f"Client {sender} requested to register GATT application {application}")
        if (sender, application) in self.gatt_apps:
            raise DBusBluezAlreadyExistsError("Already Exists")

        async def on_sender_lost():
            await getattr(self, name)(app)

        app = GattApplicationClient(sender, application, options, on_sender_lost)
        await app.object_manager_setup_sync_task(
            (GattServiceClient, GattCharacteristicClient, GattDescriptorClient))

        wanted = [h for obj in app.objects.values() if (h := obj.Handle.get())]
        if len(set(wanted)) != len(wanted) or not self.gatt_handles.isdisjoint(wanted):
            logger.error(f"GATT application {application}: handles {sorted(wanted)} clash with "
                         f"those in use {sorted(self.gatt_handles)}")
            await app.cleanup()
            await DBusClientMixin.cleanup(app)
            raise DBusBluezFailedError("Failed to create entry in database")

        logger.info(f"Adding GATT application {app.get_object_path()}")
        app.handles = set(wanted)
        self.gatt_handles.update(wanted)
        self.gatt_apps[sender, application] = app
        for obj in list(app.objects.values()):
            if obj.Handle.get():
                continue
            self.gatt_handle_counter += 1
            while self.gatt_handle_counter in self.gatt_handles:
                self.gatt_handle_counter += 1
            app.handles.add(self.gatt_handle_counter)
            self.gatt_handles.add(self.gatt_handle_counter)
            if obj.Handle.get() == 0:
                await obj.Handle.set_async(self.gatt_handle_counter)  # let the app know
            else:
                obj.Handle.cache(self.gatt_handle_counter)  # the app has no Handle property
        await self.update_uuids()

    GattManager.__dict__["RegisterApplication"].original_method = \
        dbus_method_async_except_logging(register_application)


def fix_notify_sessions():
    """StartNotify/StopNotify sessions are per D-Bus client, as in bluetoothd's gatt-client.c.

    bluetoothd 5.66 keeps one notify session per client and characteristic:
    a second StartNotify from the same client succeeds; another client's adds
    a session and succeeds; StopNotify removes only the caller's session
    (Failed "No notify session started" if it has none); a client leaving the
    bus (NameOwnerChanged to "") loses its sessions. The characteristic is
    subscribed while any session exists: Notifying turns true with the first
    and false after the last (PropertiesChanged), and only then does the
    peripheral's app get StartNotify/StopNotify (see _AppNotify, which also
    counts the central devices linked to the same app characteristic).
    Also from gatt-client.c: StartNotify without notify/indicate in Flags is
    NotSupported; while an AcquireNotify fd is open StartNotify is
    NotPermitted("Notify acquired") and StopNotify releases that fd;
    AcquireNotify while sessions exist is InProgress.

    Stock BlueZoo tracks nothing per client: once the app is notifying, any
    further StartNotify calls the app's AcquireNotify (UnknownMethod for most
    apps), the first StopNotify stops everyone's notifications, and a client
    that goes away leaves the app notifying.
    """
    Notifying = GattCharacteristicClientLink.__dict__["Notifying"]
    Notifying.property_getter = lambda self: bool(getattr(self, "notify_sessions", None))
    Notifying.setter_private(lambda self, value: None)  # the getter reads the sessions

    async def end_sessions(link):
        """The link's last session is gone."""
        await _AppNotify.of(link.client).remove(link, stop_app=not _exiting)
        await link.Notifying.set_async(False)

    async def start_notify(self) -> None:
        sender = sdbus.get_current_message().sender
        logger.debug(f"Client {sender} requested to start notification of {self}")
        if _notify_relay(self) is not None:
            raise DBusBluezNotPermittedError("Notify acquired")
        flags = self.client.Flags.get([])
        if "notify" not in flags and "indicate" not in flags:
            raise DBusBluezNotSupportedError("Operation is not supported")
        sessions = self.__dict__.setdefault("notify_sessions", {})
        if sender in sessions:
            return

        async def on_sender_lost():
            if sessions.pop(sender, None) is not None and not sessions:
                logger.debug(f"Notify session of {sender} on {self} ended: client left the bus")
                await end_sessions(self)

        sessions[sender] = events.Subscription(
            events.subscribe(f"service:lost:{sender}", on_sender_lost, once=True))
        if len(sessions) == 1:
            await _AppNotify.of(self.client).add(self)
            if sessions:  # unless it was stopped meanwhile
                await self.Notifying.set_async(True)

    async def stop_notify(self) -> None:
        sender = sdbus.get_current_message().sender
        logger.debug(f"Client {sender} requested to stop notification of {self}")
        if (relay := _notify_relay(self)) is not None:
            relay.close()
            return
        sessions = getattr(self, "notify_sessions", {})
        if (session := sessions.pop(sender, None)) is None:
            raise DBusBluezFailedError("No notify session started")
        session.unsubscribe()
        if not sessions:
            await end_sessions(self)

    for member_name, method in (("StartNotify", start_notify), ("StopNotify", stop_notify)):
        GattCharacteristicClientLink.__dict__[member_name].original_method = \
            dbus_method_async_except_logging(method)

    member = GattCharacteristicClientLink.__dict__["AcquireNotify"]
    acquire = member.original_method  # fix_p1_acquired_fds's relay

    async def acquire_notify(self, options, _acquire=acquire):
        if _notify_relay(self) is not None:
            raise DBusBluezNotPermittedError("Notify acquired")
        if getattr(self, "notify_sessions", None):
            raise DBusBluezInProgressError("In Progress")
        return await _acquire(self, options)

    member.original_method = acquire_notify


def fix_discovery_sessions():
    """Discovery sessions are per D-Bus client, as bluetoothd's adapter.c keeps them.

    bluetoothd 5.66: StartDiscovery is NotReady on an unpowered adapter and
    InProgress ("Operation already in progress") if this client already has a
    session; StopDiscovery is NotReady when unpowered and Failed("No discovery
    started") if this client has none, and stops the scan only when the last
    session ends; a client that leaves the bus loses its session (same rule);
    powering the adapter off ends every session. Stock BlueZoo stops everyone's
    scan on any client's StopDiscovery, accepts both calls on an unpowered
    adapter (and then scans while off), keeps sessions across a power cycle and
    stacks a second bus watch on a repeated StartDiscovery.

    Not done: the discovery filter stays one per adapter (bluetoothd keeps one
    per client and scans with their union), a client joining a running
    discovery does not restart the scan, and RSSI is not invalidated when the
    last session ends.
    """
    stop_scan = Adapter._Adapter__stop_discovering  # cancels the scan task, Discovering=false

    async def end_all(self):
        """Power off: every client's session ends (the only remaining caller of __stop_discovering)."""
        for session in self.scan_subscribers.values():
            session.unsubscribe()
        self.scan_subscribers.clear()
        if self.discovering:
            await stop_scan(self)

    Adapter._Adapter__stop_discovering = end_all

    async def start_discovery(self) -> None:
        sender = sdbus.get_current_message().sender
        if not self.powered:
            raise DBusBluezNotReadyError("Resource Not Ready")
        if sender in self.scan_subscribers:
            raise DBusBluezInProgressError("Operation already in progress")

        async def on_sender_lost():
            if self.scan_subscribers.pop(sender, None) is not None and not self.scan_subscribers:
                await stop_scan(self)

        self.scan_subscribers[sender] = events.Subscription(
            events.subscribe(f"service:lost:{sender}", on_sender_lost, once=True))
        if len(self.scan_subscribers) == 1:
            logger.info(f"Starting discovery on {self}")
            self.discovering_task = self.mock.create_discovering_task(self.id)
            await self.Discovering.set_async(True)

    async def stop_discovery(self) -> None:
        sender = sdbus.get_current_message().sender
        if not self.powered:
            raise DBusBluezNotReadyError("Resource Not Ready")
        if (session := self.scan_subscribers.pop(sender, None)) is None:
            raise DBusBluezFailedError("No discovery started")
        session.unsubscribe()
        if not self.scan_subscribers:
            await stop_scan(self)

    for member_name, method in (("StartDiscovery", start_discovery), ("StopDiscovery", stop_discovery)):
        Adapter.__dict__[member_name].original_method = dbus_method_async_except_logging(method)


def fix_adapter_order():
    """List adapters in index order, as bluetoothd does.

    bluetoothd's ObjectManager reports objects in the order they were registered, so hci0
    comes first, and clients that take the first adapter as their default (bluetoothctl's
    default controller, bleak's default adapter) get hci0. BlueZoo's sd-bus object manager
    lists the newest sibling first, which made hci1 everyone's default. Creating the adapters
    last-to-first restores bluetoothd's order; their indexes and addresses stay the same.
    """
    stock_startup = bz.startup

    async def startup(bus="system", adapters=(), auto_enable=False, scan_interval=10):
        await stock_startup(bus, [], auto_enable, scan_interval)
        # The stock startup keeps its service on whatever `bz.startup` is now (this wrapper or a later one).
        service = bz.startup.service
        for index, address in reversed(list(enumerate(adapters))):
            await service.add_adapter(index, address)

    bz.startup = startup


FIXES = (
    fix_p1_disconnect,
    fix_p1_acquired_fds,
    fix_p2_connect,
    fix_p3_app_gone,
    fix_p4_rescan,
    fix_p5_manufacturer_data,
    fix_p7_pairing,
    fix_agents,
    fix_indication_confirm,
    fix_gatt_handles,
    fix_notify_sessions,
    fix_discovery_sessions,
    fix_adapter_order,
)


def install_launcher_hooks():
    """Ready line once startup is done; clean shutdown on SIGTERM/SIGINT."""
    stock_startup = bz.startup

    async def startup(*args, **kwargs):
        await stock_startup(*args, **kwargs)
        # --auto-enable powers adapters from background tasks; let them finish.
        while create_background_task.tasks:
            await asyncio.gather(*list(create_background_task.tasks), return_exceptions=True)
        loop = asyncio.get_running_loop()

        async def stop():
            global _exiting
            _exiting = True
            try:
                await asyncio.wait_for(bz.shutdown(), 5)
            except Exception as e:
                logger.warning(f"Shutdown: {e!r}")
            loop.stop()

        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, lambda: asyncio.ensure_future(stop()))
        global _signals
        _signals = Signals()
        _signals.export_to_dbus("/org/gatt2mqtt/fixture")
        print("bluezoo-fixture: ready", flush=True)

    bz.startup = startup


def main():
    for fix in FIXES:
        fix()
    install_launcher_hooks()
    sys.argv[0] = "bluezoo-fixture"
    bz.main()  # BlueZoo's own CLI; returns when stop() ends the loop
    return 0


if __name__ == "__main__":
    sys.exit(main())
