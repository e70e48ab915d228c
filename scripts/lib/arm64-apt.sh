# Sourced by the scripts that fetch Debian's arm64 packages on this amd64 machine without installing them
# (scripts/cross/lib.sh: the arm64 swiftlang; scripts/installed/arm64-kernel: the arm64 kernel and busybox):
# apt pointed at one suite's arm64 index in a folder of its own, so that this machine's own apt lists and
# state stay as they are.
#
#   arm64_apt_options FOLDER SUITE    sets the array arm64_apt to the options for apt-get and apt-cache
#
# Valid-Until is not checked: sid's Release file is often past it on the mirror.
arm64_apt_options() {
    local folder="$1" suite="$2"
    mkdir -p "$folder/lists/partial" "$folder/cache/archives/partial"
    echo "deb [arch=arm64] http://deb.debian.org/debian $suite main" >"$folder/$suite.list"
    arm64_apt=(-o Dir::Etc::SourceList="$folder/$suite.list" -o Dir::Etc::SourceParts=/dev/null
        -o Dir::State::Lists="$folder/lists" -o Dir::State::Status=/dev/null -o Dir::Cache="$folder/cache"
        -o APT::Architecture=arm64 -o APT::Architectures=arm64 -o APT::Sandbox::User=root
        -o Acquire::Check-Valid-Until=false)
}
