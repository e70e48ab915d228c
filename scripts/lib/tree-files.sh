# Sourced by scripts/package (its staged copy), scripts/images (its inputs) and scripts/lib/cached-tree (the test
# command's copy): which files of a working tree make up the project.
#
#   tree_files      NUL-separated, on standard output: what git would commit from the working tree (the files it
#                   tracks and the untracked ones it does not ignore), without those deleted but not yet committed
#   project_files   the same where git is (the current folder), and otherwise (a container build's context, the test
#                   command's copy of the tree) every file but the build folders, virtual environments and what
#                   debian/rules leaves in debian/
#   not_packaged    the paths (a regular expression) that only the tests, the fuzzers, the add-on, the container
#                   build and CI read: a package built without them is the same
not_packaged='^(Tests|fuzz|addon|docker|\.ci|scripts/(realbluez|installed|crosscheck|homeassistant))/'
tree_files() {
    git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' file; do
        if [ -e "$file" ] || [ -L "$file" ]; then printf '%s\0' "$file"; fi
    done
}

project_files() {
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        tree_files
    else
        find . \( -path ./.git -o -path './.build*' -o -path ./.venv -o -path ./.swiftpm -o -path ./debian/build \
            -o -path ./debian/gatt2mqtt -o -path ./debian/.debhelper -o -path ./debian/changelog \) -prune \
            -o \( -type f -o -type l \) -printf '%P\0'
    fi
}
