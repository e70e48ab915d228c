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
    swift build "$@" 2> >(unhandled_filter >&2)
}
