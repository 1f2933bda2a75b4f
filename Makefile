# pld: set-up, demo and tests on Debian 12.
#
#   make demo   runs a shipped ring allreduce on 4 simulated ranks, runs the
#               allreduce example whole on 4 devices, lowers it to PTOAS
#               text and renders the builtin kernel package it dispatches,
#               and runs a program of upstream MLIR's shard dialect
#   make test   runs every test (unit, lit, robustness, and the Python
#               package's: make python-test)
#   make bench  installs OpenMPI and MPICH, builds the tools in release mode
#               and runs every benchmark against its anchors (bench/README.md)
#   make install PREFIX=/usr/local
#               builds in release mode and installs the tools, libpld.so with
#               its headers, pld.pc and the CMake package (docs/embedding.md)
#
# Both install the LLVM/MLIR 22 packages the build needs when they are
# missing (apt-get, as root or through sudo).

LLVM_PACKAGES := libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools \
                 libclang-22-dev clang-22 libpolly-22-dev libzstd-dev
# The tests build the C and C++ examples against an installed prefix with
# pkg-config and with CMake (docs/embedding.md).
EMBEDDING_PACKAGES := cmake pkgconf
# The simulator links Open MPI (pld-run --transport mpi|mpi-rma, one rank
# per MPI process; docs/tools/pld-run.md, "Running across machines"), and
# its tests start ranks with mpirun.
MPI_PACKAGES := openmpi-bin libopenmpi-dev
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

# The Python package's tests need a virtual environment (Debian's Python
# is externally managed, PEP 668; docs/embedding.md, "Python").
PYTHON_PACKAGES := python3-venv

.PHONY: deps demo test bench lint clean irdl install python-test

deps:
	@$(call install,$(LLVM_PACKAGES) $(EMBEDDING_PACKAGES) $(MPI_PACKAGES) $(PYTHON_PACKAGES))
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
	@$(MAKE) --no-print-directory python-test

# The Python package (docs/embedding.md, "Python"): a virtual environment
# under the target directory with maturin, numpy and pytest from PyPI, the
# package installed from ./python with the dev profile (reusing what cargo
# test built), and its tests, which compare it with the tools of that
# build.
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
VENV := $(TARGET_DIR)/python-venv

python-test: deps
	@test -x $(VENV)/bin/python || python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check maturin numpy pytest
	cargo test --workspace --no-run --quiet
	PATH="$(abspath $(VENV))/bin:$$PATH" $(VENV)/bin/pip install --quiet \
	  --disable-pip-version-check --no-build-isolation --force-reinstall --no-deps \
	  ./python --config-settings=build-args="--profile dev"
	PLD_BIN_DIR="$(abspath $(TARGET_DIR))/debug" $(VENV)/bin/python -m pytest -q -p no:cacheprovider \
	  python/tests

# The benchmarks' anchors: OpenMPI (mpicc, mpirun) from Debian, and MPICH
# (mpicc.mpich, mpiexec.mpich) for upstream's convert-shard-to-mpi, whose
# Open MPI lowering is broken in LLVM 22 (pld-bench shard-mpi).
BENCH_PACKAGES := openmpi-bin libopenmpi-dev mpich libmpich-dev

bench: deps
	@$(call install,$(BENCH_PACKAGES))
	cargo build --release -p pld-tools -p pld-plugin
	cargo run --release -p pld-bench -- all

# The combined IRDL file for stock mlir-opt (one --irdl-file for both dialects).
irdl:
	@{ sed -n '1,/^$$/p' dialect/irdl/pld-and-pto.irdl.mlir; cat dialect/irdl/pld.irdl.mlir; echo; \
	   cat dialect/irdl/pto.irdl.mlir; } > target/pld-and-pto.irdl.mlir
	@mv target/pld-and-pto.irdl.mlir dialect/irdl/pld-and-pto.irdl.mlir

# make install PREFIX=DIR (default /usr/local; DESTDIR for staging): the
# tools, libpld.so and pld's libMLIR-C.so, libPldPlugin.so when it was
# built, the C API's headers, the IRDL files, pld.pc and the CMake package.
# It builds in release mode first; FROM=DIR installs the build already in
# DIR instead (FROM=target/debug after `cargo build --workspace`), without
# running cargo. The binaries and libraries find libMLIR-C.so through their
# run path ($$ORIGIN/../lib) and libMLIR.so in LLVM's lib directory.
PREFIX ?= /usr/local
MLIR_PREFIX := /usr/lib/llvm-22
INSTALL_PACKAGES := -p pld-tools -p pld-capi $(if $(wildcard plugin/Cargo.toml),-p pld-plugin)
BUILD_DIR = $(if $(FROM),$(FROM),$(or $(CARGO_TARGET_DIR),target)/release)
VERSION = $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
DEST = $(DESTDIR)$(PREFIX)
TEMPLATE = sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@MLIR_PREFIX@|$(MLIR_PREFIX)|g' \
  -e 's|@MLIR_VERSION@|22|g' -e 's|@VERSION@|$(VERSION)|g'

install:
	$(if $(FROM),,cargo build --release $(INSTALL_PACKAGES))
	install -d $(DEST)/bin $(DEST)/lib/pkgconfig $(DEST)/lib/cmake/PLD \
	  $(DEST)/include/pld-c $(DEST)/share/pld/examples/c $(DEST)/share/pld/examples/cpp
	install -m 755 $(BUILD_DIR)/pld-opt $(BUILD_DIR)/pld-translate $(BUILD_DIR)/pld-run $(DEST)/bin
	install -m 755 $(BUILD_DIR)/libpld.so $(BUILD_DIR)/libMLIR-C.so $(DEST)/lib
	if [ -f $(BUILD_DIR)/libPldPlugin.so ]; then \
	  install -m 755 $(BUILD_DIR)/libPldPlugin.so $(DEST)/lib; fi
	install -m 644 include/pld-c/*.h $(DEST)/include/pld-c
	install -m 644 dialect/irdl/pld-and-pto.irdl.mlir dialect/irdl/pld.irdl.mlir \
	  dialect/irdl/pto.irdl.mlir $(DEST)/share/pld
	install -m 644 examples/c/lower_and_run.c examples/c/CMakeLists.txt $(DEST)/share/pld/examples/c
	install -m 644 examples/cpp/pass_manager.cpp examples/cpp/CMakeLists.txt $(DEST)/share/pld/examples/cpp
	$(TEMPLATE) capi/install/pld.pc.in > $(DEST)/lib/pkgconfig/pld.pc
	$(TEMPLATE) capi/install/PLDConfig.cmake.in > $(DEST)/lib/cmake/PLD/PLDConfig.cmake
	$(TEMPLATE) capi/install/PLDConfigVersion.cmake.in > $(DEST)/lib/cmake/PLD/PLDConfigVersion.cmake

lint:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings

clean:
	cargo clean
