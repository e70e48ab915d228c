# Shortcuts; each target is one script in scripts/.
.PHONY: demo test format bench bench-real bench-fleet bench-fleet-scale bench-soak fuzz tsan deb deb-arm64 addon

demo:
	scripts/demo

test:
	scripts/test

# Every Swift file as .swift-format says (scripts/format --lint checks; the test command runs that).
format:
	scripts/format

bench:
	scripts/bench

# The same against the real bluetoothd in the test guest (gatt2mqtt and the floors; no Python relay).
bench-real:
	scripts/bench --world real --devices 1,2,5 --rates 10,50 --json BENCHMARKS-real.json

# Three gateways of a fleet and three belts (docs/fleet-benchmark.md, FLEET-BENCHMARK.json).
bench-fleet:
	scripts/bench --fleet

# 3, 10 and 50 gateways in memory (20 devices each) on one mosquitto and on a RabbitMQ cluster: the fleet's
# broker traffic, CPU, cold start and take-over times (docs/fleet-benchmark.md "Fleet at scale", FLEET-SCALE-BENCHMARK.json).
bench-fleet-scale:
	scripts/bench --fleet-scale

# One gatt2mqtt for an hour: 10 streams, a command a second, broker and BlueZ restarts (BENCHMARKS.md "Soak", SOAK.json).
bench-soak:
	scripts/bench --soak

fuzz:
	scripts/fuzz --seconds 600

# The unit and BlueZoo suites under ThreadSanitizer (docs/thread-sanitizer.md).
tsan:
	scripts/tsan

# The Debian package (dpkg-buildpackage on debian/, then lintian): .build/package/gatt2mqtt_<version>_<arch>.deb.
deb:
	scripts/package

# The arm64 package, cross-compiled here (TOOLCHAINS): .build/package/arm64/gatt2mqtt_<version>_arm64.deb.
deb-arm64:
	scripts/package --arch arm64

# The Home Assistant add-on repository with both architectures' packages: .build/addon/gatt2mqtt-addons.
addon:
	scripts/addon
