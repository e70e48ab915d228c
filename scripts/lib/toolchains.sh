# Sourced by the scripts that check or name a compiler TOOLCHAINS states (scripts/container-base, scripts/images,
# scripts/cross/lib.sh): the one reader of that file.
#
#   stated_toolchain ARCH    prints the version TOOLCHAINS (beside scripts/) states for ARCH
stated_toolchain() {
    awk -v arch="$1" '!/^#/ && $1 == arch { print $3 }' "$(dirname "${BASH_SOURCE[0]}")/../../TOOLCHAINS"
}
