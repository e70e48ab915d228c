# Sourced by the scripts that download: a mirror's or an index's hiccup must not fail a test run.
#
#   retry WHAT COMMAND [ARGUMENT…]
#
# Runs COMMAND up to GATT2MQTT_RETRY_TRIES times (5 by default), waiting 2, 4, 8, 16 s between tries, and
# says on stderr what failed and when it tries again. COMMAND must be safe to run again: it starts over
# from nothing (a partial file removed first) or continues what is cached under .build/.
retry() {
    local what="$1"
    shift
    local tries="${GATT2MQTT_RETRY_TRIES:-5}" attempt=1 delay=2
    until "$@"; do
        if ((attempt >= tries)); then
            echo "$what: failed $attempt times; giving up" >&2
            return 1
        fi
        echo "$what: failed (try $attempt of $tries); trying again in $delay s" >&2
        sleep "$delay"
        attempt=$((attempt + 1))
        delay=$((delay * 2))
    done
}
