//! Partition views that leave their tensor view.
//!
//! The sim lowering checks each `pto.partition_view` against the shape of
//! its `pto.make_tensor_view` (offset + size within the extent, in every
//! dimension). A partition that leaves it gets, instead of its address, an
//! address from [`pld_sim_view_outside`]: one of a range above every
//! user-space mapping, which names what was wrong. The access through it
//! (a copy, a signal, an asynchronous copy) then finds it in no window,
//! tile or buffer and reports it at its op with these words, whatever the
//! windows' layout: an offset past the end of a tensor that happens to land
//! in another rank's window (adjacent windows under `--transport mpi`, or
//! an offset of exactly the threads' window stride) is refused too, not
//! written there. The view itself is no error: it may be made and never
//! used. A scalar access through a kernel parameter's own pointer outside
//! the parameter's elements is recorded the same way, as dimension -1
//! (`compiler::lower::scalar`). Under the protocol explorer the same,
//! but for signal cells: the explorer checks a cell against its signal's
//! shape itself (a finding of its own), so a notify, wait or test through
//! such a view goes to the kernel's own address there ([`kernel_address`]).

use std::sync::Mutex;

/// The address the sim lowering gives an access whose offset does not fit
/// 64 bits (`compiler::lower`'s checked addresses): above every user-space
/// mapping, so in no window, tile or buffer.
pub(crate) const UNREACHABLE: usize = 1 << 62;

/// Where the addresses of views outside their tensor begin: above
/// [`UNREACHABLE`], below 2^63.
pub(crate) const OUTSIDE_VIEWS: usize = 3 << 61;

/// Address bits per recorded view: an access's start anywhere in its slot
/// (a view's first element plus less than 2^44 bytes) names it.
const SLOT_BITS: u32 = 44;

/// How many views are remembered (the oldest is overwritten).
const SLOTS: usize = 4096;

// Every slot lies above the overflowing offsets' address and below 2^63.
const _: () =
    assert!(OUTSIDE_VIEWS > UNREACHABLE && OUTSIDE_VIEWS + (SLOTS << SLOT_BITS) <= 1 << 63);

/// A partition view that leaves its tensor view, in its first dimension
/// that does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct OutsideView {
    /// The address the kernel computed for the view's first element.
    address: usize,
    /// The `pto.partition_view`'s site (`crate::runtime::sites`).
    site: i64,
    dim: i64,
    offset: i64,
    size: i64,
    extent: i64,
}

/// The views recorded, and the next slot to fill.
static VIEWS: Mutex<(Vec<OutsideView>, usize)> = Mutex::new((Vec::new(), 0));

/// Records a view outside its tensor, whose first element the kernel
/// put at `address`; returns the address that stands for it.
pub(crate) fn record(
    address: usize,
    (site, dim): (i64, i64),
    offset: i64,
    size: i64,
    extent: i64,
) -> usize {
    let mut views = VIEWS.lock().unwrap_or_else(|e| e.into_inner());
    let view = OutsideView {
        address,
        site,
        dim,
        offset,
        size,
        extent,
    };
    let slot = views.1 % SLOTS;
    views.1 = views.1.wrapping_add(1);
    match views.0.get_mut(slot) {
        Some(old) => *old = view,
        None => views.0.push(view),
    }
    OUTSIDE_VIEWS + (slot << SLOT_BITS)
}

/// The recorded view `start` lies in (an address [`record`] gave, plus
/// less than a slot), and how far into its slot.
fn view_at(start: usize) -> Option<(OutsideView, usize)> {
    let delta = start.checked_sub(OUTSIDE_VIEWS)?;
    let views = VIEWS.lock().unwrap_or_else(|e| e.into_inner());
    let view = *views.0.get(delta >> SLOT_BITS)?;
    Some((view, delta & ((1 << SLOT_BITS) - 1)))
}

/// The address the kernel computed for `start` when `start` stands for a
/// view outside its tensor (else `start` itself).
pub(crate) fn kernel_address(start: usize) -> usize {
    match view_at(start) {
        Some((view, into)) => view.address.wrapping_add(into),
        None => start,
    }
}

/// Why an access of `what` by the op numbered `site` starting at `start`
/// is refused, when `start` stands for a view outside its tensor. The
/// partition view is named by its location when that is not the op's own
/// (in a kernel pld-to-pto made, both carry the pld op's).
pub(crate) fn describe(what: &str, site: i64, start: usize) -> Option<String> {
    let (view, _) = view_at(start)?;
    let location = |site| crate::runtime::sites::get(site).map(|s| s.location);
    let place = match location(view.site) {
        Some(at) if location(site).as_ref() != Some(&at) => format!(" at {at}"),
        _ => String::new(),
    };
    let end = i128::from(view.offset) + i128::from(view.size);
    let side = match view.offset < 0 {
        true => "before the start",
        false => "past the end",
    };
    // dim -1: a scalar access through a parameter's pointer, counted in
    // elements of the whole tensor.
    if view.dim < 0 {
        return Some(format!(
            "{what} of element {} of a parameter whose tensor holds {}: an offset {side} of \
             its tensor?",
            view.offset, view.extent
        ));
    }
    Some(format!(
        "{what} through a pto.partition_view{place} that leaves its pto.make_tensor_view \
         (elements {}..{end} of dimension {}, which holds {}): an offset {side} of its tensor?",
        view.offset, view.dim, view.extent
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_access_anywhere_in_its_slot_names_the_view() {
        let address = record(0x5000, (-1, 1), 60, 8, 64);
        assert!((OUTSIDE_VIEWS..1 << 63).contains(&address));
        for into in [0, 4096, (1 << SLOT_BITS) - 1] {
            let text = describe("a store", -1, address + into).expect("a recorded view");
            assert!(
                text.contains("(elements 60..68 of dimension 1, which holds 64)"),
                "{text}"
            );
            assert_eq!(kernel_address(address + into), 0x5000 + into);
        }
        assert_eq!(describe("a store", -1, OUTSIDE_VIEWS - 1), None);
        assert_eq!(kernel_address(OUTSIDE_VIEWS - 1), OUTSIDE_VIEWS - 1);
    }
}
