# Sourced by the scripts that prepare a guest's kernel (scripts/realbluez/prepare for amd64,
# scripts/installed/arm64-kernel for arm64): Debian 13's own kernel, the linux-image package that
# linux-image-ARCH depends on, unpacked and never installed, with Debian 13's index for ARCH in a folder of its
# own (this machine's apt lists stay as they are).
#
#   guest_kernel CACHE ARCH LABEL [PACKAGE…]
#
# sets kernel_version and kernel_root (CACHE/kernel-VERSION, made once per version: the package under root/,
# each further PACKAGE of the same index under extra/); the kernels of other versions in CACHE are removed.
# LABEL begins its messages.
. "$(dirname "${BASH_SOURCE[0]}")/retry.sh"
. "$(dirname "${BASH_SOURCE[0]}")/cache.sh"
. "$(dirname "${BASH_SOURCE[0]}")/suite-apt.sh"

guest_kernel() {
    local cache="$1" arch="$2" label="$3"
    shift 3
    local suite_apt
    suite_apt_options "$cache/apt" trixie "$arch"
    kernel_version="$(guest_kernel_depended_on)"
    if [ -z "$kernel_version" ]; then
        retry "$label: apt-get update (trixie $arch)" apt-get update -qq "${suite_apt[@]}"
        kernel_version="$(guest_kernel_depended_on)"
    fi
    [ -n "$kernel_version" ] || { echo "$label: Debian 13 $arch has no linux-image-$arch" >&2; return 1; }
    kernel_root="$cache/kernel-$kernel_version"
    # The marker names what was unpacked beside the kernel, so that a changed list makes it again.
    if [ "$(cat "$kernel_root/.unpacked" 2>/dev/null)" = "extra: $*" ]; then
        cache_note hit "$arch kernel $kernel_version"
        return 0
    fi
    echo "$label: fetching and unpacking linux-image-$kernel_version $*" >&2
    find "$cache" -mindepth 1 -maxdepth 1 -name 'kernel-*' -exec rm -rf {} +
    mkdir -p "$kernel_root/deb"
    retry "$label: apt-get download" bash -c 'cd "$1" && rm -f ./*.deb && shift && apt-get download -qq "$@"' \
        _ "$kernel_root/deb" "${suite_apt[@]}" "linux-image-$kernel_version" "$@"
    dpkg -x "$kernel_root"/deb/linux-image-*.deb "$kernel_root/root"
    rm "$kernel_root"/deb/linux-image-*.deb
    local deb
    for deb in "$kernel_root"/deb/*.deb; do
        [ -e "$deb" ] && dpkg -x "$deb" "$kernel_root/extra"
    done
    rm -rf "$kernel_root/deb"
    # Debian 13's kernel package puts its modules in /usr/lib (merged /usr); depmod and the guests look in /lib.
    [ -e "$kernel_root/root/lib" ] || ln -s usr/lib "$kernel_root/root/lib"
    depmod -b "$kernel_root/root" "$kernel_version" # the package's postinst would make modules.dep
    echo "extra: $*" >"$kernel_root/.unpacked"
    cache_note made "$arch kernel $kernel_version"
}

# The kernel linux-image-ARCH depends on in the index suite_apt points at.
guest_kernel_depended_on() {
    apt-cache "${suite_apt[@]}" depends "linux-image-$arch" 2>/dev/null |
        sed -n 's/.*Depends: linux-image-\(.*\)$/\1/p' | head -n 1 || true
}
