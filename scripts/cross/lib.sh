# Sourced by scripts/cross/arm64 and by scripts/package --arch arm64: the arm64 cross toolchain, made once
# under .build/cross, and a way to run a command with it.
#
#   cross_prepare        makes (or finds) the amd64 sid root with Debian's Swift and the aarch64 Swift SDK
#   cross_run CMD [ARG…] runs CMD in that root, as root, in a mount namespace of its own (nothing stays
#                        mounted): the repository at /src (the working folder), the SDK bundle at /sdks, the
#                        machine's Swift package copies, /proc, and qemu-aarch64-static (for running what was
#                        just built); pkg-config finds the C libraries in the SDK's sysroot
#
# The compiler is the one TOOLCHAINS states for arm64: swiftlang from Debian sid (its compiler needs sid's
# glibc, hence the sid root). The SDK is Debian 13 (trixie) arm64's C libraries, extracted (no emulation),
# with the arm64 swiftlang of exactly the root's version laid into the same sysroot, so that the sysroot is
# also the Swift resource root. The root also holds what dpkg-buildpackage -a arm64 needs: debhelper and
# build-essential (dpkg-checkbuilddeps asks for it, though nothing here compiles C), the
# aarch64 binutils (dh_strip, dpkg-shlibdeps) and the arm64 C libraries as dpkg knows them (dpkg-shlibdeps
# turns the binary's NEEDED entries into Depends from their packages' symbols files). Their versions are
# sid's, but they are only read for symbols: the binary links against trixie's.
#
# Needs root (mmdebstrap's root mode, chroot, mounts) and mmdebstrap and unshare (scripts/setup).
#
# In docker/Dockerfile's arm64 package stage, which is itself an amd64 sid root (debian:sid-slim),
# GATT2MQTT_CROSS_IN_ROOT=1: cross_prepare installs the same packages there with apt instead of making a
# root, and cross_run runs its command as it is.
cross_repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cross_cache="$cross_repo/.build/cross"
cross_in_root=false
if [ "${GATT2MQTT_CROSS_IN_ROOT:-}" = 1 ]; then cross_in_root=true; fi
cross_host="$cross_cache/sid-amd64"
$cross_in_root && cross_host=/
# The Swift SDK's name (swift build --swift-sdk), and where cross_run's commands find the SDKs
# (--swift-sdks-path).
cross_sdk=aarch64-trixie
cross_sdks_inside=/sdks
$cross_in_root && cross_sdks_inside="$cross_cache"
cross_bundle="$cross_cache/$cross_sdk.artifactbundle"
cross_sysroot="$cross_bundle/$cross_sdk/sysroot"
# The sysroot as cross_run's commands see it.
cross_sysroot_inside="$cross_sdks_inside/$cross_sdk.artifactbundle/$cross_sdk/sysroot"
cross_mirror="http://deb.debian.org/debian"
. "$cross_repo/scripts/lib/retry.sh"
. "$cross_repo/scripts/lib/cache.sh"
. "$cross_repo/scripts/lib/suite-apt.sh"
. "$cross_repo/scripts/lib/toolchains.sh"

# The Swift version TOOLCHAINS states for arm64 (upstream, without the Debian revision).
cross_stated_version() {
    stated_toolchain arm64
}

# The soname links ldconfig makes on an arm64 machine (libfoo.so.1 -> libfoo.so.1.2) when a library's
# package ships none: this machine's ldconfig skips arm64 libraries ("unknown machine 183"), and qemu-user's
# arm64 loader then finds no libpicohttpparser.so.1 for sid's libmosquitto.
cross_soname_links() {
    local folder="$1" library soname
    for library in "$folder"/*.so.*; do
        [ -f "$library" ] && [ ! -L "$library" ] || continue
        soname="$(readelf -d "$library" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]$/\1/p')"
        if [ -n "$soname" ] && [ ! -e "$folder/$soname" ]; then ln -s "$(basename "$library")" "$folder/$soname"; fi
    done
}

# The amd64 sid root under .build/cross, made once by mmdebstrap with INCLUDES (comma-separated).
cross_make_host() {
    local includes="$1"
    local tool
    for tool in mmdebstrap unshare; do
        command -v "$tool" >/dev/null || { echo "cross: $tool is missing (scripts/setup installs it)" >&2; return 1; }
    done
    local mark
    mark="$cross_host/.complete-$(echo "$includes" | sha256sum | cut -c1-12)"
    if [ ! -f "$mark" ]; then
        echo "cross: making the amd64 sid root with Debian's Swift and the arm64 libraries (about two minutes)" >&2
        # sid's Release file is often past its Valid-Until on the mirror.
        make_host() {
            rm -rf "$cross_host"
            mmdebstrap --quiet --variant=minbase --architectures=amd64,arm64 \
                --aptopt='Acquire::Check-Valid-Until "false"' --include="$includes" \
                sid "$cross_host" "$cross_mirror" >&2
        }
        retry "cross: mmdebstrap sid" make_host
        cross_soname_links "$cross_host/usr/lib/aarch64-linux-gnu"
        touch "$mark"
        cache_note made "sid root with swiftlang"
    else
        cache_note hit "sid root with swiftlang"
    fi
}

# The same packages installed in this root (the Dockerfile's sid stage), with mmdebstrap (the sysroot below), rsync
# (scripts/package) and qemu-user, under the name debian/rules runs what was built with (sid's qemu-user is static, and
# names its programs without the suffix).
cross_install_here() {
    local includes="$1" mark
    mark="$cross_cache/.installed-$(echo "$includes" | sha256sum | cut -c1-12)"
    [ ! -f "$mark" ] || return 0
    dpkg --add-architecture arm64
    retry "cross: apt-get update" apt-get update -qq -o Acquire::Check-Valid-Until=false
    # shellcheck disable=SC2086 # the list, split at its commas
    retry "cross: apt-get install" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        ${includes//,/ } mmdebstrap rsync qemu-user >/dev/null
    ln -sf /usr/bin/qemu-aarch64 /usr/local/bin/qemu-aarch64-static
    cross_soname_links /usr/lib/aarch64-linux-gnu
    touch "$mark"
}

cross_prepare() {
    local includes="swiftlang,libswiftlang,libc6-dev,libstdc++-14-dev,pkg-config,git,ca-certificates"
    includes+=",build-essential,debhelper,dpkg-dev,binutils-aarch64-linux-gnu,libc6-dev:arm64,libstdc++6:arm64"
    includes+=",libdbus-1-dev:arm64,libmosquitto-dev:arm64"
    mkdir -p "$cross_cache"
    if $cross_in_root; then
        cross_install_here "$includes"
    else
        cross_make_host "$includes"
    fi
    local swift_version stated
    if $cross_in_root; then
        swift_version="$(dpkg-query -W -f='${Version}' swiftlang)"
    else
        swift_version="$(chroot "$cross_host" dpkg-query -W -f='${Version}' swiftlang)"
    fi
    stated="$(cross_stated_version)"
    # The package version is upstream-revision (e.g. 6.2-1+b1 for 6.2). sid moves on: a newer swiftlang is a decision (try it, then update
    # TOOLCHAINS, the README and the CHANGELOG), not something to take silently.
    if [ "${swift_version%%-*}" != "$stated" ]; then
        echo "cross: Debian sid's swiftlang is $swift_version, TOOLCHAINS states $stated for arm64" >&2
        echo "cross: build with it and update TOOLCHAINS, or remove $cross_host to fetch sid again" >&2
        return 1
    fi

    if [ ! -f "$cross_bundle/.complete-$swift_version" ]; then
        echo "cross: making the aarch64 Swift SDK (trixie, swiftlang $swift_version)" >&2
        rm -rf "$cross_bundle"
        mkdir -p "$cross_bundle/$cross_sdk"
        make_sysroot() {
            rm -rf "$cross_sysroot"
            mmdebstrap --quiet --mode=root --arch=arm64 --variant=extract \
                --include=libc6-dev,libgcc-14-dev,libstdc++-14-dev,libdbus-1-dev,libmosquitto-dev \
                trixie "$cross_sysroot" "$cross_mirror" >&2
        }
        retry "cross: mmdebstrap trixie arm64" make_sysroot
        # The extract variant makes no /lib -> usr/lib link, and libm.so's linker script names /lib.
        ln -s usr/lib "$cross_sysroot/lib"
        rm -rf "$cross_sysroot/dev" "$cross_sysroot/tmp" "$cross_sysroot/var"
        # The arm64 swiftlang of the root's version, from sid's arm64 index.
        local suite_apt
        suite_apt_options "$cross_cache/apt" sid arm64
        swift_deb() {
            rm -rf "$cross_cache/deb" && mkdir -p "$cross_cache/deb"
            (cd "$cross_cache/deb" && apt-get download -qq "${suite_apt[@]}" "swiftlang=$swift_version")
        }
        retry "cross: apt-get update (sid arm64)" apt-get update -qq "${suite_apt[@]}"
        retry "cross: apt-get download swiftlang:arm64 $swift_version" swift_deb
        local unpacked="$cross_cache/swiftlang-arm64"
        rm -rf "$unpacked" && mkdir -p "$unpacked"
        dpkg-deb -x "$cross_cache"/deb/swiftlang_*_arm64.deb "$unpacked"
        cp -a "$unpacked/usr/libexec/swift/lib/swift" "$unpacked/usr/libexec/swift/lib/swift_static" "$cross_sysroot/usr/lib/"
        mkdir -p "$cross_sysroot/usr/lib/clang"
        cp -a "$unpacked"/usr/libexec/swift/lib/clang/* "$cross_sysroot/usr/lib/clang/"
        rm -rf "$unpacked" "$cross_cache/deb"
        # supportedTriples must name the host as swiftlang spells it (x86_64-pc-linux-gnu) besides the usual form.
        cat >"$cross_bundle/info.json" <<EOF
{
  "schemaVersion": "1.0",
  "artifacts": {
    "$cross_sdk": {
      "type": "swiftSDK",
      "version": "$swift_version",
      "variants": [{ "path": "$cross_sdk", "supportedTriples": ["x86_64-unknown-linux-gnu", "x86_64-pc-linux-gnu"] }]
    }
  }
}
EOF
        cat >"$cross_bundle/$cross_sdk/swift-sdk.json" <<'EOF'
{
  "schemaVersion": "4.0",
  "targetTriples": {
    "aarch64-unknown-linux-gnu": {
      "sdkRootPath": "sysroot",
      "swiftResourcesPath": "sysroot/usr/lib/swift",
      "swiftStaticResourcesPath": "sysroot/usr/lib/swift_static",
      "toolsetPaths": ["toolset.json"]
    }
  }
}
EOF
        cat >"$cross_bundle/$cross_sdk/toolset.json" <<'EOF'
{
  "schemaVersion": "1.0",
  "rootPath": "/usr/libexec/swift/bin",
  "linker": { "path": "ld.lld" },
  "swiftCompiler": { "extraCLIOptions": ["-use-ld=lld"] }
}
EOF
        touch "$cross_bundle/.complete-$swift_version"
        cache_note made "aarch64 Swift SDK"
    else
        cache_note hit "aarch64 Swift SDK"
    fi
}

# The compiler finds its libraries through $ORIGIN, which glibc resolves from /proc/self/exe: hence /proc.
cross_run() {
    if $cross_in_root; then
        local pc="$cross_sysroot/usr/lib/aarch64-linux-gnu/pkgconfig:$cross_sysroot/usr/share/pkgconfig"
        env PKG_CONFIG_SYSROOT_DIR="$cross_sysroot" PKG_CONFIG_PATH="$pc" PKG_CONFIG_LIBDIR="$pc" "$@"
        return
    fi
    unshare --mount --propagation private bash -euo pipefail -s "$cross_host" "$cross_repo" "$cross_bundle" \
        "$cross_sdks_inside/$(basename "$cross_bundle")" "$cross_sysroot_inside" "$@" <<'INNER'
host="$1" repo="$2" bundle="$3" bundle_inside="$4" sysroot="$5"
shift 5
mkdir -p "$host/src" "$host$bundle_inside" "$host/opt/swift-packages"
mount -t proc proc "$host/proc"
mount --bind "$repo" "$host/src"
mount --bind "$bundle" "$host$bundle_inside"
if [ -d /opt/swift-packages ]; then mount --bind -o ro /opt/swift-packages "$host/opt/swift-packages"; fi
if [ -f /etc/gitconfig ]; then cp /etc/gitconfig "$host/etc/gitconfig"; fi
if [ -x /usr/bin/qemu-aarch64-static ]; then
    touch "$host/usr/local/bin/qemu-aarch64-static"
    mount --bind -o ro /usr/bin/qemu-aarch64-static "$host/usr/local/bin/qemu-aarch64-static"
fi
pc="$sysroot/usr/lib/aarch64-linux-gnu/pkgconfig:$sysroot/usr/share/pkgconfig"
exec chroot "$host" env -C /src PKG_CONFIG_SYSROOT_DIR="$sysroot" PKG_CONFIG_PATH="$pc" PKG_CONFIG_LIBDIR="$pc" "$@"
INNER
}
