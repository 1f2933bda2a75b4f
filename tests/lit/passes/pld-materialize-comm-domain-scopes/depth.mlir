// One nested pld.comm_domain per distinct device set (here a pair of
// devices per buffer): so many that the
// printed module would nest deeper than pld's tools read back (1000
// levels) are refused at the function. Before, the pass succeeded and the
// module it wrote was refused by every pld tool that read it ("nesting
// deeper than 1000 levels"): a shard program of 30 allreduces over
// different grid axes of 64 devices made 505 domains.
//
// RUN: python3 %S/Inputs/many_domains.py 600 > %t.600.mlir
// RUN: not pld-opt %t.600.mlir --pass-pipeline='builtin.module(pld-materialize-comm-domain-scopes)' 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP: error: 'func.func' op @main would need 600 nested pld.comm_domain scopes around its body, one per distinct set of devices its window buffers are used on, and its own ops nest {{[0-9]+}} regions deep; in the printed module (generic form, two levels per region: `({`) that is about {{[0-9]+}} levels, and pld's tools read at most 1000 (docs/tools/pld-opt.md): use fewer distinct device sets (for a shard program, fewer distinct groups of grid axes)
//
// One scope around a body whose own scf.if nest 500 deep: the advice is
// about that nesting (it was "use fewer distinct device sets": trust26 M1).
// RUN: python3 %S/Inputs/deep_body.py 500 > %t.nested.mlir
// RUN: not pld-opt %t.nested.mlir --pass-pipeline='builtin.module(pld-materialize-comm-domain-scopes)' 2>&1 | FileCheck %s --check-prefix=NESTED
// NESTED: error: 'func.func' op @main would need 1 nested pld.comm_domain scope around its body, {{.*}} and its own ops nest 501 regions deep; {{.*}}: nest its loops and branches less deeply
//
// 400 scopes are made, and what the pass writes reads back:
// RUN: python3 %S/Inputs/many_domains.py 400 > %t.400.mlir
// RUN: pld-opt %t.400.mlir --pass-pipeline='builtin.module(pld-materialize-comm-domain-scopes)' -o %t.400.out
// RUN: pld-opt %t.400.out --pass-pipeline='builtin.module(pld-verify)' | grep -c '"pld.comm_domain"' | FileCheck %s --check-prefix=MADE
// MADE: 400
