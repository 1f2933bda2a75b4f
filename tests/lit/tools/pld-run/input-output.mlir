// Mistakes in pld-run's inputs and outputs, each said for what it is: a
// malformed .npy file (what is wrong with it, naming the file), an
// --output-dir that is a file, two --input for one parameter or buffer.
//
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: pld-run k.mlir --ranks 2 --output-dir good > /dev/null
// RUN: pld-run k.mlir --ranks 2 --input data=good/data.rank{rank}.npy > /dev/null
//
// .npy files broken in one way each (the header's text edited in place,
// its length kept):
// RUN: mkdir magic version dict shape descr fortran extent size
// RUN: sed 's/NUMPY/NUMPX/' good/data.rank0.npy > magic/data.npy
// RUN: sed 's/NUMPY\x01/NUMPY\x07/' good/data.rank0.npy > version/data.npy
// RUN: sed "s/'descr': /'descr'  /" good/data.rank0.npy > dict/data.npy
// RUN: sed "s/'shape': (2, 4), /                 /" good/data.rank0.npy > shape/data.npy
// RUN: sed "s/'<f4'/'<i4'/" good/data.rank0.npy > descr/data.npy
// RUN: sed "s/False/ True/" good/data.rank0.npy > fortran/data.npy
// RUN: sed "s/(2, 4)/(4, 2)/" good/data.rank0.npy > extent/data.npy
// RUN: head -c -4 good/data.rank0.npy > size/data.npy
// RUN: not pld-run k.mlir --ranks 2 --input data=magic/data.npy 2>&1 | FileCheck %s --check-prefix=MAGIC
// MAGIC: pld-run: error: 'magic/data.npy' (for 'data' on rank {{[0-9]}}) is not a .npy file: it starts with "\x93NUMPX", not the magic string "\x93NUMPY"
// RUN: not pld-run k.mlir --ranks 2 --input data=version/data.npy 2>&1 | FileCheck %s --check-prefix=VERSION
// VERSION: pld-run: error: 'version/data.npy' (for 'data' on rank {{[0-9]}}) has .npy format version 7.0; pld reads versions 1.0, 2.0 and 3.0
// RUN: not pld-run k.mlir --ranks 2 --input data=dict/data.npy 2>&1 | FileCheck %s --check-prefix=DICT
// DICT: pld-run: error: 'dict/data.npy' (for 'data' on rank {{[0-9]}}) has a malformed .npy header: expected ':' after 'descr' at character 11 of `{'descr'  '<f4', 'fortran_order': False, 'shape': (2, 4), }`, found `'<f4', 'fortran_order': False, 'shape':{{ }}`
// RUN: not pld-run k.mlir --ranks 2 --input data=shape/data.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: pld-run: error: 'shape/data.npy' (for 'data' on rank {{[0-9]}}) has a malformed .npy header: no 'shape' key (a header holds 'descr', 'fortran_order' and 'shape')
// RUN: not pld-run k.mlir --ranks 2 --input data=descr/data.npy 2>&1 | FileCheck %s --check-prefix=DESCR
// DESCR: pld-run: error: 'descr/data.npy' (for 'data' on rank {{[0-9]}}) holds '<i4' elements, not the f32 ('<f4') of what it fills
// RUN: not pld-run k.mlir --ranks 2 --input data=fortran/data.npy 2>&1 | FileCheck %s --check-prefix=FORTRAN
// FORTRAN: pld-run: error: 'fortran/data.npy' (for 'data' on rank {{[0-9]}}) is Fortran-ordered ('fortran_order': True); pld reads C-ordered arrays (save np.ascontiguousarray(a))
// RUN: not pld-run k.mlir --ranks 2 --input data=extent/data.npy 2>&1 | FileCheck %s --check-prefix=EXTENT
// EXTENT: pld-run: error: 'extent/data.npy' (for 'data' on rank {{[0-9]}}) has shape [4, 2], not the [2, 4] of what it fills
// RUN: not pld-run k.mlir --ranks 2 --input data=size/data.npy 2>&1 | FileCheck %s --check-prefix=SIZE
// SIZE: pld-run: error: 'size/data.npy' (for 'data' on rank {{[0-9]}}) holds 28 bytes of data after its header; 8 elements of f32 need 32
//
// --output-dir naming an existing file: refused before the run.
// RUN: touch afile
// RUN: not pld-run k.mlir --ranks 2 --output-dir afile 2>&1 | FileCheck %s --check-prefix=FILE
// FILE: pld-run: error: --output-dir 'afile' is a file, not a directory; give a directory (it is created when missing)
// FILE-NOT: finished
//
// Two --input for one parameter (by any of its names) or one buffer of a
// program: a malformed command line, status 2, naming both.
// RUN: sh -c 'pld-run k.mlir --ranks 2 --input data=ones --input arg0=zeros > twice.out 2>&1; test $? -eq 2'
// RUN: FileCheck %s --check-prefix=TWICE < twice.out
// TWICE: pld-run: error: --input fills parameter %data (arg0) twice, with 'data=ones' and with 'arg0=zeros'; keep one of them
// RUN: sh -c 'pld-run %S/../../../../examples/allreduce.mlir --ranks 2 --input data_buf=ones --input data_buf=rank > twice-program.out 2>&1; test $? -eq 2'
// RUN: FileCheck %s --check-prefix=TWICE-PROGRAM < twice-program.out
// TWICE-PROGRAM: pld-run: error: --input fills buffer 'data_buf' twice, with 'data_buf=ones' and with 'data_buf=rank'; keep one of them

// --trace naming a directory, or a file in a directory that does not exist:
// refused before the run (it ran the whole run, then said only "cannot
// write '...': Is a directory", the report lost).
// RUN: not pld-run k.mlir --ranks 2 --trace %t 2>&1 | FileCheck %s --check-prefix=TRACEDIR
// TRACEDIR: pld-run: error: --trace '{{.*}}' is a directory; give the file to write the trace to
// TRACEDIR-NOT: finished
// RUN: not pld-run k.mlir --ranks 2 --trace %t/missing/t.json 2>&1 | FileCheck %s --check-prefix=TRACEPARENT
// TRACEPARENT: pld-run: error: --trace '{{.*}}missing/t.json': '{{.*}}missing' is not a directory; the trace's directory must exist

//--- k.mlir
func.func @k(%data: tensor<2x4xf32, #pld.dist>, %sig: tensor<2x1xi32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"incore">} {
  %s2 = "pld.tensor_barrier"(%sig) : (tensor<2x1xi32, #pld.dist>) -> tensor<2x1xi32, #pld.dist>
  return
}

