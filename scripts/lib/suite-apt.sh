# Sourced by the scripts that fetch Debian packages of another suite or architecture without installing them
# (scripts/cross/lib.sh: the arm64 swiftlang; scripts/lib/guest-kernel.sh: Debian 13's kernels for the guests):
# apt pointed at one suite's index for one architecture, in a folder of its own, so that this machine's own apt
# lists and state stay as they are.
#
#   suite_apt_options FOLDER SUITE ARCH    sets the array suite_apt to the options for apt-get and apt-cache
#
# Valid-Until is not checked: sid's Release file is often past it on the mirror.
suite_apt_options() {
    local folder="$1" suite="$2" arch="$3"
    mkdir -p "$folder/lists/partial" "$folder/cache/archives/partial"
    echo "deb [arch=$arch] http://deb.debian.org/debian $suite main" >"$folder/$suite.list"
    suite_apt=(-o Dir::Etc::SourceList="$folder/$suite.list" -o Dir::Etc::SourceParts=/dev/null
        -o Dir::State::Lists="$folder/lists" -o Dir::State::Status=/dev/null -o Dir::Cache="$folder/cache"
        -o APT::Architecture="$arch" -o APT::Architectures="$arch" -o APT::Sandbox::User=root
        -o Acquire::Check-Valid-Until=false)
}
