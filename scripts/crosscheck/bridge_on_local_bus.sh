#!/usr/bin/env bash
# gatt2mqtt on the machine's own system bus (a Unix socket, which passes file descriptors) with a
# mosquitto of its own: the path a user's bridge takes, AcquireNotify included. The real-BlueZ tests run
# it inside the guest, whose bus the host reaches only over TCP. Starts an Activ5's force stream, stops
# it, and prints a line protocol for the test:
#   LOCAL FORCE <value>       three force values, after the start command
#   LOCAL STATE <state>       the state after the stop command
#   LOCAL ACQUIRED <count>    sockets the bridge acquired (its debug log)
#   LOCAL OK                  everything above happened
# Usage: bridge_on_local_bus.sh GATT2MQTT_BINARY DEVICE_ID ADAPTER MQTT_PORT
set -u
bridge="$1" id="$2" adapter="$3" port="$4"
work="$(mktemp -d)"
pids=()
finish() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$work"
}
trap finish EXIT
fail() {
    echo "LOCAL FAIL $*"
    echo "--- bridge log (tail) ---"
    tail -n 30 "$work/bridge.log" 2>/dev/null
    exit 1
}

mosquitto -p "$port" >"$work/mosquitto.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 50); do
    mosquitto_pub -p "$port" -t probe -n 2>/dev/null && break
    sleep 0.1
done

# Both subscriptions before the bridge starts (mosquitto_sub has no ready signal): the first
# `stopped` says the handshake is over; force values come only after the start command.
mosquitto_sub -p "$port" -t "a5/$id/state" -W 90 >>"$work/state" 2>/dev/null &
pids+=($!)
mosquitto_sub -p "$port" -t "a5/$id/force" -C 3 -W 90 >"$work/force" 2>/dev/null &
forces=$!
"$bridge" --broker "mqtt://127.0.0.1:$port" --adapter "$adapter" --gateway local --log-level debug --auto-connect all >"$work/bridge.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 600); do grep -qx stopped "$work/state" && break; sleep 0.1; done
grep -qx stopped "$work/state" || fail "the Activ5 never reached 'stopped'"

mosquitto_pub -p "$port" -t "a5/$id/cmd/start" -m '{}'
wait "$forces" || fail "no three force values after start"
sed 's/^/LOCAL FORCE /' "$work/force"

: >"$work/state"
mosquitto_pub -p "$port" -t "a5/$id/cmd/stop" -m '{}'
for _ in $(seq 1 200); do grep -q . "$work/state" && tail -n 1 "$work/state" | grep -qx stopped && break; sleep 0.1; done
echo "LOCAL STATE $(tail -n 1 "$work/state")"
echo "LOCAL ACQUIRED $(grep -c 'notifications through an acquired socket' "$work/bridge.log")"
echo "LOCAL OK"
