// `gatt2mqtt-bench`: the performance benchmark (BENCHMARKS.md); run it through `make bench`.
await BenchCommand.parseAndRun()
