func.func @main() attributes {pld.kind = #pld.func_kind<"host">} {
  %bytes = arith.constant 4096 : i64
  %buf = "pld.tensor_alloc_window_buffer"(%bytes) {name = "data_buf"} : (i64) -> !pld.ptr
  %data = "pld.tensor_window"(%buf) : (!pld.ptr) -> tensor<1x1024xf32, #pld.dist>
  %a = "pld.tensor_allreduce"(%data) {op = #pld.reduce_op<"sum">, mode = "two_shot"} : (tensor<1x1024xf32, #pld.dist>) -> tensor<1x1024xf32, #pld.dist>
  %b = "pld.tensor_allreduce"(%a) {op = #pld.reduce_op<"max">, mode = "auto"} : (tensor<1x1024xf32, #pld.dist>) -> tensor<1x1024xf32, #pld.dist>
  %c = "pld.tensor_allreduce"(%b) {op = #pld.reduce_op<"min">} : (tensor<1x1024xf32, #pld.dist>) -> tensor<1x1024xf32, #pld.dist>
  %sbytes = arith.constant 16 : i64
  %sbuf = "pld.tensor_alloc_window_buffer"(%sbytes) {name = "sig_buf"} : (i64) -> !pld.ptr
  %s = "pld.tensor_window"(%sbuf) : (!pld.ptr) -> tensor<4x1xi32, #pld.dist>
  %d = "pld.tensor_allreduce"(%c, %s) {op = #pld.reduce_op<"prod">, mode = "auto"} : (tensor<1x1024xf32, #pld.dist>, tensor<4x1xi32, #pld.dist>) -> tensor<1x1024xf32, #pld.dist>
  return
}

