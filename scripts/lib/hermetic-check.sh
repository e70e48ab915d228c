#!/usr/bin/env bash
# Runs a command (a test run) where the machine's own gatt2mqtt folders are hostile, to prove that the tests
# never read or write them: /var/lib/gatt2mqtt holds a broken options.json and a damaged fleet-incarnation,
# /etc/gatt2mqtt a broken gatt2mqtt.yaml, /run/gatt2mqtt a stray file, and all three are read-only. A test that
# loads the options kept in the default state directory fails on the JSON; a daemon that keeps its incarnation
# there refuses to start (a damaged file is never read as 0); one that would write anything there cannot.
#
#   sudo scripts/lib/hermetic-check.sh COMMAND [ARGS…]
#   e.g. scripts/lib/hermetic-check.sh env GATT2MQTT_WORLDS=bluezoo swift test --skip-build --skip 'IntegrationTests\.'
#
# The machine itself is left alone: the folders are tmpfs mounts in a mount namespace of the command's own
# (unshare --mount, private propagation), gone when it ends. Only a folder that did not exist is made, empty, as
# the mount point, and removed again afterwards (trap). Exits with the command's status.
set -euo pipefail
if (($# == 0)); then
    echo "usage: scripts/lib/hermetic-check.sh COMMAND [ARGS…]" >&2
    exit 2
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "hermetic-check: needs root (mounts in a mount namespace of its own)" >&2
    exit 2
fi
folders=(/var/lib/gatt2mqtt /etc/gatt2mqtt /run/gatt2mqtt)
made=()
restore() {
    local folder
    for folder in "${made[@]}"; do rmdir "$folder" 2>/dev/null || echo "hermetic-check: could not remove $folder" >&2; done
}
trap restore EXIT
for folder in "${folders[@]}"; do
    if [ ! -e "$folder" ]; then
        mkdir "$folder"
        made+=("$folder")
    fi
done

# Inside the namespace: each folder a small tmpfs with its bogus contents, then read-only, then the command.
HERMETIC_FOLDERS="${folders[*]}" unshare --mount --propagation private -- bash -c '
    set -euo pipefail
    for folder in $HERMETIC_FOLDERS; do mount -t tmpfs -o size=1m,mode=0755 hermetic-check "$folder"; done
    printf "{\"options\": not json\n" >/var/lib/gatt2mqtt/options.json
    printf "not a number\n" >/var/lib/gatt2mqtt/fleet-incarnation
    printf "[not valid JSON\n" >/var/lib/gatt2mqtt/adopted.json
    printf "[not valid JSON\n" >/var/lib/gatt2mqtt/identities.json
    printf "broker: [not: valid: yaml\ngateway: hermetic-check-must-not-be-read\n" >/etc/gatt2mqtt/gatt2mqtt.yaml
    printf "hermetic-check\n" >/run/gatt2mqtt/stray
    for folder in $HERMETIC_FOLDERS; do mount -o remount,ro "$folder"; done
    for folder in $HERMETIC_FOLDERS; do
        if touch "$folder/hermetic-check-probe" 2>/dev/null; then
            echo "hermetic-check: $folder is still writable" >&2
            exit 2
        fi
    done
    echo "hermetic-check: $HERMETIC_FOLDERS hold bogus files and are read-only; running: $*" >&2
    exec "$@"
' hermetic-check "$@"
