//! The typed builders produce ops that IRDL, MLIR's verifier and pld-verify
//! accept, and the typed views read back what was built.

use melior::ir::{
    attribute::IntegerAttribute, block::BlockLike, operation::OperationLike, r#type::IntegerType,
    Location, RegionLike, Type, Value, ValueLike,
};
use pld_dialect::enums::{AtomicType, NotifyOp, ReduceOp, WaitCmp};
use pld_dialect::ops::{collective, ctx, remote, signal};

const KERNEL: &str = r#"
func.func @k(%data: tensor<1x64xf32, #pld.dist>, %sig: tensor<4x1xi32, #pld.dist>,
             %ctx: !pld.ctx, %peer: i32, %i: index, %tile: tensor<1x64xf32, #pld.tile>)
    attributes {pld.kind = #pld.func_kind<"incore">} {
  return
}
"#;

#[test]
fn built_ops_verify_and_read_back() {
    let context = pld_dialect::context();
    let module = pld_ir::parse::parse(&context, KERNEL, "kernel.mlir").expect("kernel parses");
    let func = module.body().first_operation().expect("func");
    let body = func.region(0).unwrap().first_block().unwrap();
    let ret = body.terminator().unwrap();
    let arg = |i: usize| -> Value { body.argument(i).unwrap().into() };
    let (data, sig, ctx_value, peer, index, tile) =
        (arg(0), arg(1), arg(2), arg(3), arg(4), arg(5));
    let location = Location::unknown(&context);
    let i32_type: Type = IntegerType::new(&context, 32).into();

    let rank = body.insert_operation_before(
        ret,
        ctx::Rank::builder(&context, location)
            .ctx(ctx_value)
            .result(i32_type)
            .build(),
    );
    let me: Value = rank.result(0).unwrap().into();
    let one = body.insert_operation_before(
        ret,
        melior::dialect::arith::constant(
            &context,
            IntegerAttribute::new(i32_type, 1).into(),
            location,
        ),
    );
    let one: Value = one.result(0).unwrap().into();

    let notify = body.insert_operation_before(
        ret,
        signal::Notify::builder(&context, location)
            .target(sig)
            .peer(me)
            .offsets(&[index, index])
            .value(one)
            .notify_op(&context, NotifyOp::AtomicAdd)
            .build(),
    );
    body.insert_operation_before(
        ret,
        signal::Wait::builder(&context, location)
            .signal(sig)
            .offsets(&[index, index])
            .expected(one)
            .cmp(&context, WaitCmp::Ge)
            .build(),
    );
    let load = body.insert_operation_before(
        ret,
        remote::RemoteLoad::builder(&context, location)
            .target(data)
            .peer(peer)
            .offsets(&[index, index])
            .valid_shape(&[])
            .result(tile.r#type())
            .build(),
    );
    body.insert_operation_before(
        ret,
        remote::TileRemoteStore::builder(&context, location)
            .src(tile)
            .target(data)
            .peer(peer)
            .offsets(&[index, index])
            .atomic(&context, AtomicType::Add)
            .build(),
    );
    let reduce = body.insert_operation_before(
        ret,
        collective::AllReduce::builder(&context, location)
            .target(data)
            .signal(Some(sig))
            .reduce_op(&context, ReduceOp::Max)
            .core_num(&context, 1)
            .result(data.r#type())
            .build(),
    );

    assert!(module.as_operation().verify(), "MLIR/IRDL verification");
    let findings = pld_dialect::verify::verify(module.as_operation());
    assert!(findings.is_empty(), "pld-verify: {findings:?}");

    let notify = signal::Notify::cast(notify).expect("a notify");
    assert_eq!(notify.offsets().len(), 2);
    assert_eq!(notify.notify_op(), Some(NotifyOp::AtomicAdd));
    assert_eq!(notify.target(), Some(sig));
    let load = remote::RemoteLoad::cast(load).expect("a remote load");
    assert_eq!(load.offsets().len(), 2);
    assert!(load.valid_shape().is_empty());
    assert_eq!(load.peer(), Some(peer));
    let reduce = collective::AllReduce::cast(reduce).expect("an allreduce");
    assert_eq!(reduce.reduce_op(), Some(ReduceOp::Max));
    assert_eq!(reduce.core_num(), Some(1));
    assert_eq!(reduce.signal(), Some(sig));
    assert!(collective::Barrier::cast(reduce.op()).is_none());

    let text = module.as_operation().to_string();
    assert!(text.contains(
        r#""pld.tile_remote_load"(%arg0, %arg3, %arg4, %arg4) {operandSegmentSizes = array<i32: 1, 1, 2, 0>}"#
    ), "{text}");
    assert!(
        text.contains(r#"{atomic = #pld.atomic_type<"add">}"#),
        "{text}"
    );
}

#[test]
fn a_misbuilt_op_is_reported_not_crashed_on() {
    let context = pld_dialect::context();
    let module = pld_ir::parse::parse(&context, KERNEL, "kernel.mlir").expect("kernel parses");
    let func = module.body().first_operation().expect("func");
    let body = func.region(0).unwrap().first_block().unwrap();
    let ret = body.terminator().unwrap();
    let sig: Value = body.argument(1).unwrap().into();
    let location = Location::unknown(&context);
    // One offset for a rank-2 signal.
    let index: Value = body.argument(4).unwrap().into();
    let one = body.insert_operation_before(
        ret,
        melior::dialect::arith::constant(
            &context,
            IntegerAttribute::new(IntegerType::new(&context, 32).into(), 1).into(),
            location,
        ),
    );
    body.insert_operation_before(
        ret,
        signal::Wait::builder(&context, location)
            .signal(sig)
            .offsets(&[index])
            .expected(one.result(0).unwrap().into())
            .cmp(&context, WaitCmp::Eq)
            .build(),
    );
    let findings = pld_dialect::verify::verify(module.as_operation());
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert!(findings[0]
        .message
        .contains("expected 2 offsets (one per dimension of signal), got 1"));
}
