// --emit-bytecode with --split-input-file writes what mlir-opt 22 writes:
// each chunk's bytecode, joined by the separator line `// -----` (so the
// file as a whole is no longer bytecode; neither tool reads it back).
// pld-opt used to refuse the combination.
//
// RUN: rm -rf %t && split-file %s %t && cd %t && mkdir one two
// RUN: pld-opt chunks.mlir --split-input-file --emit-bytecode -o split.mlirbc
//
// Exactly the chunks' own bytecode and the separator: each chunk alone,
// at the same lines of a file of the same name (the locations in the
// bytecode name both), written without --split-input-file.
// RUN: sed '/^\/\/ -----/,$d' chunks.mlir > one/chunks.mlir
// RUN: sed '1,/^\/\/ -----/s/.*//' chunks.mlir > two/chunks.mlir
// RUN: cd one && pld-opt chunks.mlir --emit-bytecode -o ../one.mlirbc && cd ..
// RUN: cd two && pld-opt chunks.mlir --emit-bytecode -o ../two.mlirbc && cd ..
// RUN: printf '// -----\n' > separator
// RUN: cat one.mlirbc separator two.mlirbc > joined.mlirbc
// RUN: cmp split.mlirbc joined.mlirbc
//
// The same layout from mlir-opt (its bytes differ only in the locations
// it gives a split chunk's module).
// RUN: od -An -c split.mlirbc | tr -d ' \n' | FileCheck %s
// RUN: mlir-opt chunks.mlir --split-input-file --emit-bytecode | od -An -c | tr -d ' \n' | FileCheck %s
// CHECK: {{^}}ML357R{{.*}}chunks.mlir\0a\0{{.*}}//-----\nML357R{{.*}}chunks.mlir\0b\0
// CHECK-NOT: ML357R

//--- chunks.mlir
func.func @a() { return }
// -----
func.func @b() { return }
