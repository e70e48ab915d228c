# Sourced by the scripts that prepare a guest's kernel (scripts/realbluez/prepare for amd64,
# scripts/installed/arm64-kernel for arm64): the small busybox initramfs both guests boot, whose /init
# (scripts/realbluez/guest-init) only loads virtio, 9p and overlayfs and switches to the root shared over 9p.
#
#   make_initramfs BUSYBOX MODULES OUTPUT
#
# BUSYBOX is a static busybox for the guest's architecture; MODULES the kernel's lib/modules/VERSION/kernel
# folder. A module the kernel has built in is simply not there (arm64's virtio_pci); Debian 13 compresses
# its modules (.ko.xz), which busybox's insmod cannot read, so they go in uncompressed. OUTPUT is replaced
# whole, never left half written.
make_initramfs() {
    local busybox="$1" modules="$2" output="$3" work module file
    work="$(mktemp -d)"
    mkdir -p "$work"/{bin,mod,proc,sys,dev,lower,rw,newroot}
    cp "$busybox" "$work/bin/busybox"
    cp scripts/realbluez/guest-init "$work/init"; chmod +x "$work/init"
    for module in drivers/virtio/virtio_ring drivers/virtio/virtio drivers/virtio/virtio_pci_modern_dev \
        drivers/virtio/virtio_pci_legacy_dev drivers/virtio/virtio_pci fs/netfs/netfs fs/fscache/fscache \
        net/9p/9pnet net/9p/9pnet_virtio fs/9p/9p fs/overlayfs/overlay; do
        file="$modules/$module.ko"
        if [ -f "$file" ]; then cp "$file" "$work/mod/"; fi
        if [ -f "$file.xz" ]; then xz -dc "$file.xz" >"$work/mod/$(basename "$module").ko"; fi
    done
    (cd "$work" && find . | busybox cpio -o -H newc 2>/dev/null | gzip -1) >"$output.part"
    rm -rf "$work"
    mv "$output.part" "$output"
}
