# Sourced by scripts/test: each step of the run timed as a stage, with whether its caches held what it needed,
# and a table of them at the end, so that every log (CI's included) shows where the time went.
#
#   stage NAME COMMAND [ARG…]   runs COMMAND (a function too) and records NAME, its seconds and its cache
#   stages_table                 prints the table; fails (status 1) when a stage took over 1.5 times its budget
#
# Whether a stage's caches held: a script that keeps a cache says so with `cache_note` (scripts/lib/cache.sh)
# into the file GATT2MQTT_CACHE_NOTES names: `hit WHAT` or `made WHAT`. A stage with only hits is `cached`, one
# with any `made` is `made`, one whose scripts said nothing is `-`.
#
# The records go to the file GATT2MQTT_STAGES names (made here when unset), so that a run that continues in
# another process (scripts/test moving into the cached tree) keeps the stages it had.
#
# Budgets: scripts/stage-budgets, one line a stage: its name, its seconds when made and when
# cached. The whole run is checked too (`total`). They hold on this project's 2-core machines with room for a
# host twice as slow: a stage fails the run only past 1.5 times its budget, and the budgets themselves are
# about 1.4 times what such a machine takes.
: "${GATT2MQTT_STAGES:=$(mktemp --tmpdir gatt2mqtt-stages.XXXXXX)}"
export GATT2MQTT_STAGES
stages_budgets="$(dirname "${BASH_SOURCE[0]}")/../stage-budgets"
# When the run started (kept across the move into the cached tree): the table's total is from there.
: "${GATT2MQTT_RUN_STARTED:=$EPOCHSECONDS}"
export GATT2MQTT_RUN_STARTED

stage() { # NAME COMMAND [ARG…]
    local name="$1"
    shift
    local notes started status=0
    notes="$(mktemp --tmpdir gatt2mqtt-cache-notes.XXXXXX)"
    started=$EPOCHREALTIME
    echo "stage: $name" >&2
    GATT2MQTT_CACHE_NOTES="$notes"
    export GATT2MQTT_CACHE_NOTES
    "$@" || status=$?
    unset GATT2MQTT_CACHE_NOTES
    local seconds cache
    seconds="$(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')"
    if grep -q '^made' "$notes"; then
        cache=made
    elif grep -q '^hit' "$notes"; then
        cache=cached
    else
        cache=-
    fi
    rm -f "$notes"
    printf '%s\t%s\t%s\t%s\n' "$name" "$seconds" "$cache" "$status" >>"$GATT2MQTT_STAGES"
    return "$status"
}

# A stage's budget in seconds for how it ran (made or cached), or nothing when it has none.
stage_budget() { # NAME CACHE
    [ -f "$stages_budgets" ] || return 0
    awk -v key="$1" -v cache="$2" '!/^#/ && NF >= 3 && $1 == key { print (cache == "cached" ? $3 : $2); exit }' \
        "$stages_budgets"
}

# The table, and whether every stage kept within 1.5 times its budget (checked only when CHECK is `check`: a
# run of some tests or worlds, or a repeated one, is no measure of the whole).
stages_table() { # [check]
    local check="${1:-}" over=() name seconds cache status budget total mark made=false
    echo "stages (seconds; cache: made = built now, cached = taken from the cache; budget ×1.5 fails the run):"
    printf '  %-44s %8s %8s  %s\n' stage seconds budget cache
    while IFS=$'\t' read -r name seconds cache status; do
        budget="$(stage_budget "$name" "$cache")"
        mark=""
        [ "$status" = 0 ] || mark=" (failed)"
        if [ "$cache" = made ]; then made=true; fi
        if [ -n "$budget" ] && [ "$check" = check ] && ((seconds * 2 > budget * 3)); then
            over+=("$name: ${seconds} s, over 1.5 × its budget of $budget s")
            mark+=" OVER"
        fi
        printf '  %-44s %8s %8s  %s%s\n' "$name" "$seconds" "${budget:--}" "$cache" "$mark"
    done <"$GATT2MQTT_STAGES"
    total=$((EPOCHSECONDS - GATT2MQTT_RUN_STARTED))
    # The whole run's budget: as made when any cache missed, else as cached.
    if $made; then budget="$(stage_budget total made)"; else budget="$(stage_budget total cached)"; fi
    if [ -n "$budget" ] && [ "$check" = check ] && ((total * 2 > budget * 3)); then
        over+=("the whole run: ${total} s, over 1.5 × its budget of $budget s")
    fi
    printf '  %-44s %8s %8s  %s\n' "total ($((total / 60)) min $((total % 60)) s)" "$total" "${budget:--}" \
        "$($made && echo "some made" || echo "all cached")"
    if ((${#over[@]})); then
        printf 'stages: over budget: %s\n' "${over[@]}"
        return 1
    fi
}
