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
