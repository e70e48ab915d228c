# Sourced by scripts/package (its staged copy) and scripts/lib/cached-tree (the test command's copy): which
# files of a working tree make up the project.
#
#   tree_files    NUL-separated, on standard output: what git would commit from the working tree (the files it
#                 tracks and the untracked ones it does not ignore), without those deleted but not yet committed
tree_files() {
    git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' file; do
        if [ -e "$file" ] || [ -L "$file" ]; then printf '%s\0' "$file"; fi
    done
}
