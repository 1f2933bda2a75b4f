"""Writes a HOST program whose N buffers are each dispatched to a pair of
devices of their own ({0, 1}, {0, 2}, ..., devices below 64): N distinct
device sets, so N nested pld.comm_domain scopes."""
import itertools
import sys

count = int(sys.argv[1])
pairs = itertools.islice(itertools.combinations(range(64), 2), count)
print('func.func @chip(%d: tensor<8xf32, #pld.dist>) attributes {pld.kind = #pld.func_kind<"chip">} {')
print("  return")
print("}")
print('func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {')
print("  %bytes = arith.constant 32 : i64")
for i, pair in enumerate(pairs):
    print(f'  %b{i} = "pld.tensor_alloc_window_buffer"(%bytes) {{name = "w{i}"}} : (i64) -> !pld.ptr')
    print(f'  %w{i} = "pld.tensor_window"(%b{i}) : (!pld.ptr) -> tensor<8xf32, #pld.dist>')
    for device in pair:
        print(f"  %c{i}_{device} = arith.constant {device} : index")
        print(f'  "pld.dispatch"(%c{i}_{device}) ({{')
        print(f"    func.call @chip(%w{i}) : (tensor<8xf32, #pld.dist>) -> ()")
        print("    gpu.yield")
        print("  }) : (index) -> ()")
print("  return")
print("}")
