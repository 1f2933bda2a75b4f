# pld: set-up, demo and tests on Debian 12.
#
#   make demo   runs a shipped ring allreduce on 4 simulated ranks, runs the
#               allreduce example whole on 4 devices, lowers it to PTOAS
#               text and renders the builtin kernel package it dispatches,
#               and runs a program of upstream MLIR's shard dialect
#   make test   runs every test (unit, lit, robustness)
#   make bench  installs OpenMPI and MPICH, builds the tools in release mode
#               and runs every benchmark against its anchors (bench/README.md)
#
# Both install the LLVM/MLIR 22 packages the build needs when they are
# missing (apt-get, as root or through sudo).

LLVM_PACKAGES := libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools \
                 libclang-22-dev clang-22 libpolly-22-dev libzstd-dev
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
EXAMPLE := examples/allreduce.mlir

# Installs the Debian packages $(1) that are missing (apt-get, as root or
# through sudo).
define install
missing=""; \
for p in $(1); do \
  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
done; \
if [ -n "$$missing" ]; then \
  echo "installing:$$missing"; \
  $(SUDO) apt-get update && \
  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends $$missing; \
fi
endef

.PHONY: deps demo test bench lint clean irdl

deps:
	@$(call install,$(LLVM_PACKAGES))
	@command -v cargo >/dev/null || { echo "cargo is required (https://rustup.rs)"; exit 1; }

demo: deps
	cargo build --workspace --quiet
	@echo "== a ring allreduce of 4097 floats on 4 simulated ranks, checked against a golden =="
	./target/debug/pld-run examples/ring_allreduce.mlir --ranks 4 --check --stats
	@echo "== $(EXAMPLE) whole on 4 simulated devices: an InCore allreduce in a dispatched kernel, then a HOST allreduce =="
	./target/debug/pld-run $(EXAMPLE) --ranks 4 --check --stats
	@mkdir -p target/demo
	@echo "== $(EXAMPLE) through pld-to-pto; the InCore kernel as PTOAS reads it =="
	./target/debug/pld-opt $(EXAMPLE) --pass-pipeline='builtin.module(pld-to-pto)' \
	  --mlir-use-nameloc-as-prefix -o target/demo/allreduce.lowered.mlir
	./target/debug/pld-translate --emit=pto target/demo/allreduce.lowered.mlir -o target/demo/allreduce.pto
	@head -n 12 target/demo/allreduce.pto
	@echo "   ... (all of it in target/demo/allreduce.pto; the lowered module in target/demo/allreduce.lowered.mlir)"
	@echo "== the builtin kernel package its HOST dispatch names (docs/builtins.md) =="
	./target/debug/pld-translate --emit=kernels target/demo/allreduce.lowered.mlir -o target/demo/kernels
	@find target/demo/kernels -type f | sort
	@echo "== the CHIP rail: stage, all_to_all_v, consume in one CHIP orchestrator (1 round trip per device) =="
	./target/debug/pld-run examples/chip_all_to_all_v.mlir --ranks 2 --check --stats
	@echo "== upstream MLIR's shard dialect on a 2x4 grid: every collective over the rows, an uneven reshard (docs/passes/convert-shard-to-pld.md) =="
	./target/debug/pld-run examples/shard.mlir --ranks 8 --check
	@echo "== the protocol explorer: 20 seeded schedules of the ring (clean), then a kernel that reads before it waits (docs/memory-model.md) =="
	./target/debug/pld-run examples/ring_allreduce.mlir --ranks 4 --explore 20 --check
	./target/debug/pld-run tests/explore/remote-load-without-wait.mlir --ranks 2 --explore 10 \
	  || echo "   (exit status 1: that race is what this kernel is in the corpus for)"

test: deps
	cargo test --workspace

# The benchmarks' anchors: OpenMPI (mpicc, mpirun) from Debian, and MPICH
# (mpicc.mpich, mpiexec.mpich) for upstream's convert-shard-to-mpi, whose
# Open MPI lowering is broken in LLVM 22 (pld-bench shard-mpi).
BENCH_PACKAGES := openmpi-bin libopenmpi-dev mpich libmpich-dev

bench: deps
	@$(call install,$(BENCH_PACKAGES))
	cargo build --release -p pld-tools
	cargo run --release -p pld-bench -- all

# The combined IRDL file for stock mlir-opt (one --irdl-file for both dialects).
irdl:
	@{ sed -n '1,/^$$/p' dialect/irdl/pld-and-pto.irdl.mlir; cat dialect/irdl/pld.irdl.mlir; echo; \
	   cat dialect/irdl/pto.irdl.mlir; } > target/pld-and-pto.irdl.mlir
	@mv target/pld-and-pto.irdl.mlir dialect/irdl/pld-and-pto.irdl.mlir

lint:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings

clean:
	cargo clean
