#!/bin/sh
# The add-on's entry point: the broker from the Supervisor's MQTT service, the options from /data/options.json, each
# as the gateway's environment variable (README, "Configuration"); the state in /data, which the Supervisor keeps.
# The gateway checks every value as it checks its file, and a refused one stops the add-on with a log line naming it.
set -eu
options="${GATT2MQTT_ADDON_OPTIONS:-/data/options.json}"
# The Supervisor's API: http://supervisor inside Home Assistant OS (a test points it elsewhere).
api="${SUPERVISOR_API:-http://supervisor}"
say() { echo "gatt2mqtt add-on: $*" >&2; }

[ -r "$options" ] || { say "no options at $options"; exit 1; }
if [ -z "${SUPERVISOR_TOKEN:-}" ]; then
    say "no SUPERVISOR_TOKEN: this script runs as a Home Assistant add-on (the container image is docker/Dockerfile's)"
    exit 1
fi
if ! mqtt="$(curl -fsS --max-time 10 -H "Authorization: Bearer $SUPERVISOR_TOKEN" "$api/services/mqtt")"; then
    say "the Supervisor offers no MQTT broker ($api/services/mqtt): install and start the Mosquitto broker add-on"
    exit 1
fi
field() { printf '%s' "$mqtt" | jq -er ".data.$1"; }
scheme=mqtt
if [ "$(printf '%s' "$mqtt" | jq -r '.data.ssl // false')" = true ]; then scheme=mqtts; fi
GATT2MQTT_BROKER_URL="$scheme://$(field host):$(field port)"
GATT2MQTT_BROKER_USERNAME="$(printf '%s' "$mqtt" | jq -r '.data.username // empty')"
GATT2MQTT_BROKER_PASSWORD="$(printf '%s' "$mqtt" | jq -r '.data.password // empty')"
export GATT2MQTT_BROKER_URL GATT2MQTT_BROKER_USERNAME GATT2MQTT_BROKER_PASSWORD

# One option as one variable: lists joined by commas, the aliases as ADDRESS=name pairs (the gateway's forms).
set_option() { # VARIABLE JQ-FILTER
    value="$(jq -r "$2 // empty" "$options")"
    if [ -n "$value" ]; then export "$1=$value"; else unset "$1"; fi
}
set_option GATT2MQTT_GATEWAY_NAME '.gateway'
set_option GATT2MQTT_ADAPTERS '(.adapters // []) | join(",")'
set_option GATT2MQTT_DEVICES_AUTO_CONNECT '.auto_connect'
set_option GATT2MQTT_DEVICES_ALLOW '(.allow // []) | join(",")'
set_option GATT2MQTT_DEVICES_ALIASES '(.aliases // []) | map("\(.address)=\(.name)") | join(",")'
set_option GATT2MQTT_HOMEASSISTANT_DISCOVERY_PREFIX '.discovery_prefix'
set_option GATT2MQTT_HOMEASSISTANT_FAST_STREAMS '.fast_streams | select(. != null) | tostring'
set_option GATT2MQTT_LOG_LEVEL '.log_level'
# Adoptions, Home Assistant identities and the fleet's incarnation; not /data itself, whose options.json is the
# Supervisor's (the gateway's own overlay of options has that name too).
export GATT2MQTT_STATE_DIRECTORY=/data/gatt2mqtt
mkdir -p "$GATT2MQTT_STATE_DIRECTORY"
say "broker $GATT2MQTT_BROKER_URL${GATT2MQTT_BROKER_USERNAME:+ as $GATT2MQTT_BROKER_USERNAME}, gateway ${GATT2MQTT_GATEWAY_NAME:-(host name)}"
exec gatt2mqtt
