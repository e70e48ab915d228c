# Sourced by scripts/test: each step of the run timed as a stage, with whether its caches held what it needed,
# and a table of them at the end, so that every log (CI's included) shows where the time went.
#
#   stage NAME COMMAND [ARG…]   runs COMMAND (a function too) and records NAME, its seconds and its cache
#   beside JOB COMMAND [ARG…]    runs COMMAND in the background beside what follows, in a bash with this file
#                                sourced: typically `stage NAME SCRIPT…`, or a function exported with export -f
#                                that runs stages; the stages it runs are marked `beside` in the table
#   beside_join JOB…             waits for those jobs and shows their output; fails when one of them failed
#   beside_stop                  stops the jobs still running beside (a run that ends early)
#   stages_table                 prints the table; fails (status 1) when a stage took over 1.5 times its budget
#
# Beside: the set-up that waits on mirrors, dpkg or one core (downloads, Debian roots, Home Assistant's pip)
# runs while the compiles keep both cores busy; the table marks such a stage and its seconds overlap others'.
# The cpu column is the seconds of processor time the stage's processes took: near twice its seconds, it
# kept both cores busy; near its seconds or below, it left room beside it. The steal column is the processor
# seconds the hypervisor gave other guests while the stage ran, on all cores (/proc/stat): a stage that took
# long with much steal met a busy host, not a change of ours.
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
    local notes started stage_status=0 cpu_before steal_before
    notes="$(mktemp --tmpdir gatt2mqtt-cache-notes.XXXXXX)"
    started=$EPOCHREALTIME
    stages_cpu cpu_before
    steal_before="$(stages_steal)"
    echo "stage: $name" >&2
    GATT2MQTT_CACHE_NOTES="$notes"
    export GATT2MQTT_CACHE_NOTES
    "$@" || stage_status=$?
    unset GATT2MQTT_CACHE_NOTES
    local seconds cache cpu cpu_after steal
    seconds="$(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')"
    stages_cpu cpu_after
    cpu="$(awk -v a="$cpu_before" -v b="$cpu_after" 'BEGIN { printf "%.0f", b - a }')"
    steal="$(awk -v a="$steal_before" -v b="$(stages_steal)" 'BEGIN { printf "%.0f", b - a }')"
    if grep -q '^made' "$notes"; then
        cache=made
    elif grep -q '^hit' "$notes"; then
        cache=cached
    else
        cache=-
    fi
    rm -f "$notes"
    # One short line in one write, appended: stages beside each other add theirs to the same file.
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$seconds" "$cache" "$stage_status" "$cpu" "$steal" \
        "${GATT2MQTT_STAGE_BESIDE:+beside}" >>"$GATT2MQTT_STAGES"
    return "$stage_status"
}

# Processor seconds (user and system) of this shell's finished child processes so far (bash's `times`), into
# the variable VAR: `times` must run in this shell itself, as a subshell's counts start from nothing.
stages_cpu() { # VAR
    local stages_times
    stages_times="$(mktemp --tmpdir gatt2mqtt-times.XXXXXX)"
    times >"$stages_times"
    printf -v "$1" '%s' "$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); sum += t[1] * 60 + t[2] } }
        END { printf "%.2f", sum }' "$stages_times")"
    rm -f "$stages_times"
}

# Seconds of processor time stolen from this machine by its hypervisor so far, all cores (/proc/stat's
# eighth figure, in clock ticks); 0 where the kernel does not count it.
stages_steal() {
    awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu" { printf "%.2f", $9 / hz; exit }' /proc/stat 2>/dev/null || echo 0
}

# The jobs beside: JOB → a folder with its log, its status when it ends, its session's id, and a lock it
# holds while it runs. The job is not this shell's child (started from a subshell that ends at once), so that
# its processor time is never counted in the cpu of the stage during which it happened to end.
declare -A beside_jobs=()
stages_library="$(realpath "${BASH_SOURCE[0]}")"
beside() { # JOB COMMAND [ARG…]
    local job="$1"
    shift
    local folder
    folder="$(mktemp -d --tmpdir "gatt2mqtt-beside-$job.XXXXXX")"
    echo "beside: $job starts (its output follows when it ends)" >&2
    # The lock is taken before the job starts and passed on to it: a join can never come before it.
    (
        exec 7>"$folder/lock"
        flock 7
        # setsid: a session of its own, so that beside_stop stops all of its processes (mmdebstrap's, pip's).
        # The job stops at its first failed stage (set -e); what it runs does not get the lock (7>&-), so that
        # nothing it leaves running could keep a join waiting.
        GATT2MQTT_STAGE_BESIDE=1 setsid bash -c 'trap "echo \$? >\"$0/status\"" EXIT; set -euo pipefail; . "$1"
            shift; "$@" 7>&-' "$folder" "$stages_library" "$@" >"$folder/log" 2>&1 </dev/null &
        echo $! >"$folder/session"
    )
    beside_jobs[$job]="$folder"
}

beside_join() { # JOB…
    local job folder status=0 one
    for job in "$@"; do
        folder="${beside_jobs[$job]:-}"
        [ -n "$folder" ] || continue
        flock "$folder/lock" true
        one="$(cat "$folder/status" 2>/dev/null || echo killed)"
        sed "s/^/[$job] /" "$folder/log" >&2
        rm -rf "$folder"
        unset "beside_jobs[$job]"
        if [ "$one" != 0 ]; then
            echo "beside: $job failed (status $one)" >&2
            status=1
        fi
    done
    return "$status"
}

beside_stop() {
    local job folder
    for job in "${!beside_jobs[@]}"; do
        folder="${beside_jobs[$job]}"
        pkill -TERM -s "$(cat "$folder/session")" || true
        flock "$folder/lock" true
        rm -rf "$folder"
    done
    beside_jobs=()
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
    printf '  %-44s %8s %8s %6s %6s  %s\n' stage seconds budget cpu steal cache
    while IFS=$'\t' read -r name seconds cache status cpu steal beside; do
        budget="$(stage_budget "$name" "$cache")"
        mark=""
        [ "$status" = 0 ] || mark=" (failed)"
        if [ "$cache" = made ]; then made=true; fi
        if [ -n "$budget" ] && [ "$check" = check ] && ((seconds * 2 > budget * 3)); then
            over+=("$name: ${seconds} s, over 1.5 × its budget of $budget s")
            mark+=" OVER"
        fi
        printf '  %-44s %8s %8s %6s %6s  %s%s\n' "$name${beside:+ (beside)}" "$seconds" "${budget:--}" "${cpu:--}" \
            "${steal:--}" "$cache" "$mark"
    done <"$GATT2MQTT_STAGES"
    total=$((EPOCHSECONDS - GATT2MQTT_RUN_STARTED))
    # The whole run's budget: as made when any cache missed, else as cached.
    if $made; then budget="$(stage_budget total made)"; else budget="$(stage_budget total cached)"; fi
    if [ -n "$budget" ] && [ "$check" = check ] && ((total * 2 > budget * 3)); then
        over+=("the whole run: ${total} s, over 1.5 × its budget of $budget s")
    fi
    printf '  %-44s %8s %8s %6s %6s  %s\n' "total ($((total / 60)) min $((total % 60)) s)" "$total" "${budget:--}" "" "" \
        "$($made && echo "some made" || echo "all cached")"
    if ((${#over[@]})); then
        printf 'stages: over budget: %s\n' "${over[@]}"
        return 1
    fi
}
