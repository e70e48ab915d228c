# Sourced by the scripts a newcomer runs first (scripts/demo, scripts/test, scripts/bench,
# scripts/cross/arm64): SwiftPM's output as it is, but for its warnings about files a dependency leaves
# undeclared ("found 1 file(s) which are unhandled", a CMakeLists.txt of swift-distributed-tracing, three
# times a build), which are not ours to fix and would be all that a first build shows for minutes.
#
#   build_quietly [swift build arguments…]     swift build, its standard error filtered
#   COMMAND 2> >(unhandled_filter >&2)          the same filter on any command's output
unhandled_filter() {
    awk '/: found [0-9]+ file\(s\) which are unhandled;/ { skip = 1; next }
        skip && /^    \// { next } { skip = 0; print; fflush() }'
}

build_quietly() {
    # The callers drop SwiftPM's progress (standard output), where it also writes the compiler's errors: keep it,
    # and on a failed build show it on standard error, so that a broken build says why.
    local output status=0
    output="$(mktemp)"
    swift build "$@" 2> >(unhandled_filter >&2) | tee "$output" || status=$?
    if [ "$status" -ne 0 ]; then
        grep -E "error:|warning:|^[^\[]" "$output" | unhandled_filter >&2 || true
    fi
    rm -f "$output"
    return "$status"
}
