"""A HOST function whose one window buffer's allreduce sits under N nested
scf.if: one comm domain scope, and a body N regions deep."""
import sys

depth = int(sys.argv[1])
t = "tensor<1x64xf32, #pld.dist>"
print('func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {')
print("  %b = arith.constant 256 : i64")
print("  %t = arith.constant true")
print('  %p = "pld.tensor_alloc_window_buffer"(%b) {name = "x"} : (i64) -> !pld.ptr')
print("scf.if %t {\n" * depth, end="")
print(f'%d = "pld.tensor_window"(%p) : (!pld.ptr) -> {t}')
print(f'%r = "pld.tensor_allreduce"(%d) {{op = #pld.reduce_op<"sum">}} : ({t}) -> {t}')
print("}\n" * depth, end="")
print("  return\n}")
