# Shortcuts; each target is one script in scripts/.
.PHONY: demo test bench fuzz

demo:
	scripts/demo

test:
	scripts/test

bench:
	scripts/bench

fuzz:
	scripts/fuzz
