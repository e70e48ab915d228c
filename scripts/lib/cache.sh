# Sourced by the scripts that keep something made once for later runs (roots, kernels, toolchains, Home
# Assistant): they tell scripts/test's stage table whether they found it or made it (scripts/lib/stages.sh).
#
#   cache_note hit|made WHAT
#
# Every such cache is written under a temporary name (or with a mark written last) and only then put in
# place, so that a run killed half-way, or a full disk, leaves nothing that a later run would take for whole.
cache_note() {
    if [ -n "${GATT2MQTT_CACHE_NOTES:-}" ]; then printf '%s %s\n' "$1" "$2" >>"$GATT2MQTT_CACHE_NOTES"; fi
}

# Where the cache is: GATT2MQTT_CACHE, else $XDG_CACHE_HOME/gatt2mqtt, else ~/.cache/gatt2mqtt (the home
# folder from the password database when HOME is not set, as a CI runner may leave it).
cache_folder() {
    local home="${HOME:-}"
    [ -n "$home" ] || home="$(getent passwd "$(id -u)" | cut -d: -f6)"
    echo "${GATT2MQTT_CACHE:-${XDG_CACHE_HOME:-$home/.cache}/gatt2mqtt}"
}
