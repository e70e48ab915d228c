# Sourced by the scripts that run arm64 programs as if they were native (mmdebstrap's maintainer scripts in
# an arm64 root): registers qemu-aarch64-static with the kernel's binfmt_misc for as long as they need it.
#
#   binfmt_aarch64_register      registers it (F: the interpreter is opened now, so it works in a chroot)
#   binfmt_aarch64_unregister    removes what binfmt_aarch64_register added, nothing else
#
# The registration is the machine's while it lasts: the caller unregisters it (on EXIT too). A handler the
# machine has already (Debian's qemu-user-binfmt, say) is used as it is and left alone. Needs root.
binfmt_folder=/proc/sys/fs/binfmt_misc
binfmt_name="g2m-qemu-aarch64"
binfmt_added=false

binfmt_aarch64_register() {
    [ -f "$binfmt_folder/register" ] || mount -t binfmt_misc binfmt_misc "$binfmt_folder"
    local existing
    for existing in "$binfmt_folder"/qemu-aarch64 "$binfmt_folder/$binfmt_name"; do
        if [ -f "$existing" ] && grep -q '^enabled' "$existing"; then return 0; fi
    done
    local interpreter
    interpreter="$(command -v qemu-aarch64-static)" || { echo "binfmt: qemu-aarch64-static is missing (scripts/setup installs it)" >&2; return 1; }
    # The ELF header of an aarch64 executable (e_machine 0xb7), as Debian's qemu-user-binfmt registers it.
    printf '%s' ":$binfmt_name:M::\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00:\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:$interpreter:F" \
        > "$binfmt_folder/register"
    binfmt_added=true
}

binfmt_aarch64_unregister() {
    if $binfmt_added && [ -f "$binfmt_folder/$binfmt_name" ]; then echo -1 > "$binfmt_folder/$binfmt_name"; fi
    binfmt_added=false
}
