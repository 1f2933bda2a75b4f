//! The InCore kernels of a converted program: the per-device data
//! movement around pld's row-based collectives (packing a tensor into the
//! rows a collective moves, unpacking its result into the shard op's
//! layout), local slices and the counts of an all_to_all_v.
//!
//! Every movement is a [`Move`]: a box of a kernel parameter, seen as a
//! 2-D row-major matrix, loaded into a tile and stored into a box of
//! another parameter, possibly repeated along a loop. A transpose of the
//! two leading dimensions of `[A, B, W]` into `[B, A, W]` is `B` boxes of
//! `[A, W]`: each box is strided in the source view `[A, B*W]` and
//! contiguous in the destination view `[B*A, W]`. Boxes larger than a tile
//! may be are cut into tiles that divide them evenly, and every tile's row
//! is padded to 32 bytes (PTO's tile row alignment) with a `valid_shape`
//! narrowing it to the data.

use super::text::{kind_attributes, Body};
use super::types::{PerDevice, TensorType};
use pld_dialect::enums::{FuncKind, NotifyOp, PldEnum};
use pld_dialect::ops::{
    ctx::{GetCommCtx, Rank},
    signal::Notify,
    tile::{TensorView, TileLoad, TileStore},
};
use pld_ir::print::symbol_ref;
use std::collections::HashMap;

/// The UB bytes the tiles of one kernel may take together (of the 192 KiB
/// of an A2/A3 AIV core).
const UB_SHARE: usize = 160 * 1024;
/// The largest tile of one box.
const MAX_TILE: usize = 32 * 1024;
/// PTO tile rows are multiples of 32 bytes.
const ROW_ALIGN: usize = 32;
/// The most box copies (tile sites) one kernel holds: each takes a tile
/// of at least one aligned row.
pub const MAX_SITES: usize = UB_SHARE / ROW_ALIGN;

/// Where a box starts along one dimension: `base` (per device) plus
/// `step` times the loop's index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offset {
    pub base: PerDevice,
    pub step: i64,
}

impl Offset {
    /// `value + step * s`, the same on every device.
    pub fn fixed(devices: usize, value: usize, step: usize) -> Offset {
        Offset {
            base: PerDevice::constant(devices, value as i64),
            step: step as i64,
        }
    }
}

/// One end of a move: a parameter seen as a `view` matrix, and the box's
/// first row and column in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub param: usize,
    pub view: [usize; 2],
    pub row: Offset,
    pub col: Offset,
}

/// A box of `extent` rows and columns copied from `src` to `dst`, for
/// `s` in `0..count`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    pub src: Place,
    pub dst: Place,
    pub extent: [usize; 2],
    pub count: usize,
}

/// What a kernel does, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Copy(Move),
    /// Writes `counts` into the rank-1 `i32` parameter `param` (this rank's
    /// all_to_all_v send counts), with `pld.system_notify` `set`.
    SetCounts {
        param: usize,
        counts: Vec<i64>,
    },
}

/// An InCore kernel: its parameters (window views) and actions.
#[derive(Clone, Debug)]
pub struct Kernel {
    pub name: String,
    pub params: Vec<TensorType>,
    /// A parameter in the world's comm domain: its rank is the device's
    /// linear index, which per-device offsets are computed from.
    pub world: usize,
    pub actions: Vec<Action>,
}

impl Kernel {
    /// The tile sites of the kernel (one per box copy).
    fn sites(&self) -> usize {
        self.actions
            .iter()
            .filter(|a| matches!(a, Action::Copy(_)))
            .count()
    }

    /// Whether the tiles fit the UB share even at their smallest.
    pub fn fits(&self) -> bool {
        self.sites() <= MAX_SITES
    }

    /// The kernel as a `func.func` of kind `incore`, at `loc`.
    pub fn render(&self, loc: &str) -> String {
        let mut writer = Writer::new(self, loc);
        for action in &self.actions {
            match action {
                Action::Copy(m) => writer.copy(m),
                Action::SetCounts { param, counts } => writer.set_counts(*param, counts),
            }
        }
        let params: Vec<String> = self
            .params
            .iter()
            .enumerate()
            .map(|(i, t)| format!("%p{i}: {}", t.dist()))
            .collect();
        format!(
            "func.func {}({}) attributes {} {{\n{}  return {loc}\n}} {loc}\n",
            symbol_ref(&self.name),
            params.join(", "),
            kind_attributes(FuncKind::InCore),
            writer.body.finish()
        )
    }
}

/// Writes one kernel's body.
struct Writer<'k> {
    kernel: &'k Kernel,
    body: Body,
    views: HashMap<(usize, [usize; 2]), String>,
    bases: HashMap<Vec<i64>, String>,
    device: Option<String>,
    budget: usize,
}

impl<'k> Writer<'k> {
    fn new(kernel: &'k Kernel, loc: &str) -> Writer<'k> {
        let budget = (UB_SHARE / kernel.sites().max(1)).clamp(ROW_ALIGN, MAX_TILE);
        Writer {
            kernel,
            body: Body::new(loc),
            views: HashMap::new(),
            bases: HashMap::new(),
            device: None,
            budget,
        }
    }

    /// The parameter `param` seen as `view` (a `pld.tensor_view`).
    fn view(&mut self, param: usize, view: [usize; 2]) -> String {
        let ty = &self.kernel.params[param];
        if ty.shape == view {
            return format!("%p{param}");
        }
        if let Some(name) = self.views.get(&(param, view)) {
            return name.clone();
        }
        let name = self.body.fresh("view");
        let target = ty.reshaped(view.to_vec()).dist();
        self.body.head(&format!(
            "{name} = \"{}\"(%p{param}) {{operandSegmentSizes = array<i32: 1, 0, 0>}} : ({}) -> {target}",
            TensorView::NAME,
            ty.dist()
        ));
        self.views.insert((param, view), name.clone());
        name
    }

    /// The device's linear index: the rank of the world parameter.
    fn device(&mut self) -> String {
        if let Some(d) = &self.device {
            return d.clone();
        }
        let world = self.kernel.world;
        let ty = self.kernel.params[world].dist();
        let (ctx, rank, device) = (
            self.body.fresh("ctx"),
            self.body.fresh("rank"),
            self.body.fresh("device"),
        );
        self.body.head(&format!(
            "{ctx} = \"{}\"(%p{world}) : ({ty}) -> !pld.ctx",
            GetCommCtx::NAME
        ));
        self.body.head(&format!(
            "{rank} = \"{}\"({ctx}) : (!pld.ctx) -> i32",
            Rank::NAME
        ));
        self.body.head(&format!(
            "{device} = arith.index_cast {rank} : i32 to index"
        ));
        self.device = Some(device.clone());
        device
    }

    /// A per-device value as an `index`: a constant, `a * d + b`, a scaled
    /// grid coordinate, or a table of the devices.
    fn base(&mut self, value: &PerDevice) -> String {
        if let Some(v) = value.as_constant() {
            return self.body.index(v);
        }
        if let Some(name) = self.bases.get(&value.0) {
            return name.clone();
        }
        let device = self.device();
        let name = if let Some((a, b)) = value.as_affine() {
            let scaled = self.head_arith("muli", &device, a);
            self.head_arith("addi", &scaled, b)
        } else if let Some((div, modulus, scale, add)) = value.as_digit() {
            let q = self.head_arith("divui", &device, div);
            // The remainder is the quotient itself when no device's
            // quotient reaches the modulus.
            let devices = value.0.len() as i64;
            let r = if div * modulus >= devices {
                q
            } else {
                self.head_arith("remui", &q, modulus)
            };
            let s = self.head_arith("muli", &r, scale);
            self.head_arith("addi", &s, add)
        } else {
            self.table(&device, value)
        };
        self.bases.insert(value.0.clone(), name.clone());
        name
    }

    /// `lhs <op> constant` at the entry, folding identities.
    fn head_arith(&mut self, op: &str, lhs: &str, constant: i64) -> String {
        let identity = match op {
            "addi" => constant == 0,
            "muli" | "divui" => constant == 1,
            _ => false,
        };
        if identity {
            return lhs.to_string();
        }
        let c = self.body.index(constant);
        let result = self.body.fresh("t");
        self.body
            .head(&format!("{result} = arith.{op} {lhs}, {c} : index"));
        result
    }

    /// A select chain over the device index.
    fn table(&mut self, device: &str, value: &PerDevice) -> String {
        let values = &value.0;
        let mut acc = self.body.index(values[values.len() - 1]);
        for d in (0..values.len() - 1).rev() {
            let (cd, vd) = (self.body.index(d as i64), self.body.index(values[d]));
            let (is, sel) = (self.body.fresh("is"), self.body.fresh("t"));
            self.body
                .head(&format!("{is} = arith.cmpi eq, {device}, {cd} : index"));
            self.body
                .head(&format!("{sel} = arith.select {is}, {vd}, {acc} : index"));
            acc = sel;
        }
        acc
    }

    /// `base + step * s + chunk * j`, as an `index` at the current point.
    fn at(&mut self, offset: &Offset, s: Option<&str>, chunk: usize, j: Option<&str>) -> String {
        let mut terms = Vec::new();
        if offset.base.as_constant() != Some(0) {
            terms.push(self.base(&offset.base));
        }
        if let (Some(s), true) = (s, offset.step != 0) {
            terms.push(self.scaled(s, offset.step));
        }
        if let Some(j) = j {
            terms.push(self.scaled(j, chunk as i64));
        }
        let Some(first) = terms.first().cloned() else {
            return self.body.index(0);
        };
        terms[1..]
            .iter()
            .fold(first, |sum, term| self.body.arith("addi", &sum, term))
    }

    /// `value * factor` at the current point.
    fn scaled(&mut self, value: &str, factor: i64) -> String {
        if factor == 1 {
            return value.to_string();
        }
        let factor = self.body.index(factor);
        self.body.arith("muli", value, &factor)
    }

    fn copy(&mut self, m: &Move) {
        let elem = &self.kernel.params[m.src.param];
        let tiling = Tiling::new(m.extent, elem.bytes, self.budget);
        let src = self.view(m.src.param, m.src.view);
        let dst = self.view(m.dst.param, m.dst.view);
        let s = (m.count > 1).then(|| self.body.open_for(m.count));
        let i = (tiling.steps(0) > 1).then(|| self.body.open_for(tiling.steps(0)));
        let j = (tiling.steps(1) > 1).then(|| self.body.open_for(tiling.steps(1)));
        let (s, i, j) = (s.as_deref(), i.as_deref(), j.as_deref());
        let src_row = self.at(&m.src.row, s, tiling.tile[0], i);
        let src_col = self.at(&m.src.col, s, tiling.tile[1], j);
        let dst_row = self.at(&m.dst.row, s, tiling.tile[0], i);
        let dst_col = self.at(&m.dst.col, s, tiling.tile[1], j);
        let tile_type = tiling.tile_type(&elem.elem);
        let src_type = elem.reshaped(m.src.view.to_vec()).dist();
        let dst_type = elem.reshaped(m.dst.view.to_vec()).dist();
        let tile = self.body.fresh("tile");
        let load = if tiling.partial() {
            let h = self.valid(&tiling, 0, i);
            let w = self.valid(&tiling, 1, j);
            format!(
                "{tile} = \"{load}\"({src}, {src_row}, {src_col}, {h}, {w}) {{operandSegmentSizes = array<i32: 1, 2, 2>}} : ({src_type}, index, index, index, index) -> {tile_type}",
                load = TileLoad::NAME
            )
        } else {
            format!(
                "{tile} = \"{load}\"({src}, {src_row}, {src_col}) {{operandSegmentSizes = array<i32: 1, 2, 0>}} : ({src_type}, index, index) -> {tile_type}",
                load = TileLoad::NAME
            )
        };
        self.body.op(&load);
        self.body.op(&format!(
            "\"{}\"({tile}, {dst}, {dst_row}, {dst_col}) : ({tile_type}, {dst_type}, index, index) -> ()",
            TileStore::NAME
        ));
        for open in [j, i, s] {
            if open.is_some() {
                self.body.close();
            }
        }
    }

    /// The valid extent of dimension `dim` of the tile at step `step`: the
    /// tile's, or what is left of the box for the last, narrower tile.
    fn valid(&mut self, tiling: &Tiling, dim: usize, step: Option<&str>) -> String {
        let (tile, extent) = (tiling.tile[dim], tiling.extent[dim]);
        match step {
            Some(step) if !extent.is_multiple_of(tile) => {
                let (size, whole) = (self.body.index(tile as i64), self.body.index(extent as i64));
                let done = self.body.arith("muli", step, &size);
                let left = self.body.arith("subi", &whole, &done);
                self.body.arith("minui", &size, &left)
            }
            _ => self.body.index(tile as i64),
        }
    }

    fn set_counts(&mut self, param: usize, counts: &[i64]) {
        let ty = self.kernel.params[param].dist();
        let (ctx, me) = (self.body.fresh("ctx"), self.body.fresh("me"));
        self.body.op(&format!(
            "{ctx} = \"{}\"(%p{param}) : ({ty}) -> !pld.ctx",
            GetCommCtx::NAME
        ));
        self.body.op(&format!(
            "{me} = \"{}\"({ctx}) : (!pld.ctx) -> i32",
            Rank::NAME
        ));
        for (peer, count) in counts.iter().enumerate() {
            let at = self.body.index(peer as i64);
            let value = self.body.typed(*count, "i32");
            self.body.op(&format!(
                "\"{}\"(%p{param}, {me}, {at}, {value}) {{op = {}}} : ({ty}, i32, index, i32) -> ()",
                Notify::NAME,
                notify_set()
            ));
        }
    }
}

/// `#pld.notify_op<"set">`.
fn notify_set() -> String {
    format!("#{}<\"{}\">", NotifyOp::ATTR, NotifyOp::Set)
}

/// How a box is cut into tiles of at most `budget` bytes: `tile` rows and
/// columns each (the last tile of a dimension narrower when the tile does
/// not divide the box), rows padded to a multiple of 32 bytes.
struct Tiling {
    extent: [usize; 2],
    tile: [usize; 2],
    padded: usize,
}

impl Tiling {
    fn new(extent: [usize; 2], bytes: usize, budget: usize) -> Tiling {
        let align = (ROW_ALIGN / bytes).max(1);
        let most = (budget / bytes / align).max(1) * align;
        let cols = extent[1].clamp(1, most);
        let padded = cols.div_ceil(align) * align;
        let rows = extent[0].clamp(1, (budget / (padded * bytes)).max(1));
        Tiling {
            extent,
            tile: [rows, cols],
            padded,
        }
    }

    /// Tiles along dimension `dim`.
    fn steps(&self, dim: usize) -> usize {
        self.extent[dim].div_ceil(self.tile[dim])
    }

    /// Whether the tile's valid region is narrower than the tile (padding,
    /// or a last tile narrower than the others).
    fn partial(&self) -> bool {
        self.padded != self.tile[1] || self.ragged(0) || self.ragged(1)
    }

    fn ragged(&self, dim: usize) -> bool {
        !self.extent[dim].is_multiple_of(self.tile[dim])
    }

    /// `tensor<RxCxf32, #pld.tile>`, with a `valid_shape` (`-1` for a
    /// ragged dimension) when partial.
    fn tile_type(&self, elem: &str) -> String {
        let [rows, cols] = self.tile;
        if !self.partial() {
            return format!("tensor<{rows}x{cols}x{elem}, #pld.tile>");
        }
        let valid = |dim: usize| {
            if self.ragged(dim) {
                -1
            } else {
                self.tile[dim] as i64
            }
        };
        format!(
            "tensor<{rows}x{}x{elem}, #pld.tile_with<{{valid_shape = array<i64: {}, {}>}}>>",
            self.padded,
            valid(0),
            valid(1)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_tiles_are_padded_to_32_bytes() {
        let tiling = Tiling::new([8, 4], 4, MAX_TILE);
        assert_eq!(
            tiling.tile_type("f32"),
            "tensor<8x8xf32, #pld.tile_with<{valid_shape = array<i64: 8, 4>}>>"
        );
        assert_eq!(
            Tiling::new([2, 8], 4, MAX_TILE).tile_type("f32"),
            "tensor<2x8xf32, #pld.tile>"
        );
    }

    #[test]
    fn boxes_larger_than_a_tile_end_in_a_narrower_tile() {
        // 4099 floats in tiles of 1024: 4 full ones and one of 3.
        let tiling = Tiling::new([1, 4099], 4, 4096);
        assert_eq!(tiling.tile, [1, 1024]);
        assert_eq!(tiling.steps(1), 5);
        assert!(tiling.ragged(1));
        assert_eq!(
            tiling.tile_type("f32"),
            "tensor<1x1024xf32, #pld.tile_with<{valid_shape = array<i64: 1, -1>}>>"
        );
        // Rows: as many as fit.
        assert_eq!(Tiling::new([100, 16], 4, 4096).tile, [64, 16]);
    }
}
