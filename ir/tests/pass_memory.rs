//! A pld pass handed to MLIR is freed with the pass manager that owns it:
//! its box, and the boxes of the copies MLIR makes of it. Allocations of
//! one unusual size (the pass's box) are counted by the allocator.

use melior::ir::{operation::OperationRef, Module};
use melior::pass::PassManager;
use melior::Context;
use pld_ir::pass::{external, Anchor, PassFailed, PassIdentity, PldPass};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

/// The size of the pass below: no other allocation of the test has it.
const SIZE: usize = 1368;

/// Live allocations of `SIZE` bytes.
static LIVE: AtomicIsize = AtomicIsize::new(0);

struct Counting;

// SAFETY: every call is forwarded to the system allocator unchanged; the
// counter only observes the sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() == SIZE {
            LIVE.fetch_add(1, Ordering::SeqCst);
        }
        // SAFETY: as the caller's contract of `GlobalAlloc::alloc`.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if layout.size() == SIZE {
            LIVE.fetch_sub(1, Ordering::SeqCst);
        }
        // SAFETY: as the caller's contract of `GlobalAlloc::dealloc`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// A pass holding data, as a pass with options does.
#[derive(Clone)]
struct Holding {
    _data: [u8; SIZE],
}

impl PldPass for Holding {
    const ARGUMENT: &'static str = "test-holding-pass";
    const NAME: &'static str = "TestHoldingPass";
    const SUMMARY: &'static str = "holds data";
    const ANCHOR: Anchor = Anchor::Function;

    fn run(&self, _: &Context, _: OperationRef) -> Result<(), PassFailed> {
        Ok(())
    }
}

static HOLDING: PassIdentity = PassIdentity;

#[test]
fn a_pass_and_its_copies_are_freed_with_their_manager() {
    assert_eq!(std::mem::size_of::<Holding>(), SIZE);
    let context = pld_ir::parse::upstream_context();
    let mut module = Module::parse(
        &context,
        "module { func.func @a() { return } func.func @b() { return } }",
    )
    .expect("parses");
    let before = LIVE.load(Ordering::SeqCst);
    {
        let manager = PassManager::new(&context);
        let nested = manager.nested_under("func.func");
        for _ in 0..3 {
            nested.add_pass(external(Holding { _data: [7; SIZE] }, &HOLDING));
        }
        manager.run(&mut module).expect("runs");
        assert!(LIVE.load(Ordering::SeqCst) >= before + 3);
    }
    assert_eq!(LIVE.load(Ordering::SeqCst), before, "pass boxes leaked");
}
