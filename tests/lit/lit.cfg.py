# lit configuration of the pld FileCheck suites.
#
# Run through `cargo test --workspace` (tests/lit.rs), which sets PLD_BIN_DIR
# to the directory of the freshly built pld tools. Running lit by hand works
# too: `PLD_BIN_DIR=target/debug /usr/lib/llvm-22/bin/lit -v tests/lit`.

import os
import shutil
import subprocess

import lit.formats

config.name = "pld"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
# Inputs/ directories hold the files tests read, not tests.
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(
    os.environ.get("PLD_LIT_OUTPUT", os.path.join(config.test_source_root, "Output"))
)

workspace = os.path.abspath(os.path.join(config.test_source_root, "..", ".."))
# Absolute, because some RUN lines run tools from inside a test's directory.
bin_dir = os.path.abspath(
    os.environ.get("PLD_BIN_DIR", os.path.join(workspace, "target", "debug"))
)
llvm_bin = os.environ.get("LLVM_BIN_DIR", "/usr/lib/llvm-22/bin")

config.environment["PATH"] = os.pathsep.join(
    [bin_dir, llvm_bin, os.environ.get("PATH", "")]
)
# pld-run's compile cache: the suite's own, under its output directory,
# never the user's.
config.environment["PLD_CACHE_DIR"] = os.path.join(config.test_exec_root, "pld-cache")
config.substitutions.append(
    ("%pld_irdl", os.path.join(workspace, "dialect", "irdl", "pld.irdl.mlir"))
)
config.substitutions.append(
    ("%both_irdl", os.path.join(workspace, "dialect", "irdl", "pld-and-pto.irdl.mlir"))
)
config.substitutions.append(
    ("%pto_irdl", os.path.join(workspace, "dialect", "irdl", "pto.irdl.mlir"))
)
# pld's runtime headers (runtime-sys/include): the CPU stand-in for pto-isa
# (pto-sim/) and the headers it includes.
config.substitutions.append(
    ("%runtime_include", os.path.join(workspace, "runtime-sys", "include"))
)
# The mlir-opt pass plugin (tests/lit/plugin/). tests/lit.rs passes the one
# this `cargo test` built (which it leaves in deps/); by hand, the one next
# to the tools.
config.substitutions.append(
    (
        "%pld_plugin",
        os.path.abspath(
            os.environ.get("PLD_PLUGIN", os.path.join(bin_dir, "libPldPlugin.so"))
        ),
    )
)

# Open MPI's launcher, for the tests of `pld-run --transport mpi|mpi-rma`
# (tests/lit/tools/pld-run/mpi/, `REQUIRES: mpirun`; skipped without it).
# As root (CI) mpirun needs --allow-run-as-root; --oversubscribe lets 4
# processes share 2 cores.
if shutil.which("mpirun") is not None:
    config.available_features.add("mpirun")
config.substitutions.append(
    ("%mpirun", "mpirun --allow-run-as-root --oversubscribe")
)

# The emulated cluster (tests/cluster/emulated-nodes.sh: nodes as network
# and UTS namespaces of this machine) for
# tests/lit/tools/pld-run/mpi/emulated-nodes.mlir (`REQUIRES:
# emulated-nodes`): only where its probe can make namespaces (root with
# CAP_NET_ADMIN), so that a machine without them skips the test.
emulated_nodes = os.path.join(workspace, "tests", "cluster", "emulated-nodes.sh")
if "mpirun" in config.available_features:
    probe = subprocess.run(
        [emulated_nodes, "probe"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PATH": config.environment["PATH"]},
    )
    if probe.returncode == 0:
        config.available_features.add("emulated-nodes")
config.substitutions.append(("%emulated_nodes", emulated_nodes))
