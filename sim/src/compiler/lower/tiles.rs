//! Tile buffers: allocation, valid shapes, `pto.tload`/`pto.tstore` as
//! checked copies, fill-pad, and element-wise math as loops over the valid
//! region (left to LLVM to vectorise).

use super::rewriter::{key, Lowered, Op, Rewriter, Step};
use crate::runtime::tiles::TILE_HEADER;
use melior::{
    dialect::llvm,
    ir::{operation::OperationLike, OperationRef, Value},
};
use pld_dialect::ops::pto;
use pld_ir::{self as ir, build::Builder};

impl<'c, 'a> Rewriter<'c, 'a>
where
    'c: 'a,
{
    /// Lowers one op of this family.
    pub(super) fn tile_op(&mut self, op: &Op<'c, 'a>) -> Lowered<'c, 'a, Step<'c, 'a>> {
        let Op { op, b, ref name } = *op;
        let (b, operand) = (&b, |i| super::rewriter::operand(op, i));
        let replacement: Option<Value<'c, 'a>> = match name.as_str() {
            pto::AllocTile::NAME => Some(self.alloc_tile(op, b, name)?),
            pto::SetValidShape::NAME => {
                self.set_valid(b, operand(0), operand(1), operand(2));
                None
            }
            pto::GetValidShape::NAME => {
                let (rows, cols) = self.valid(b, operand(0));
                let index = b.index_type();
                for (i, value) in [rows, cols].into_iter().enumerate() {
                    let value = b.index_cast(value, index);
                    ir::replace_all_uses(op.result(i).expect("two results").into(), value);
                }
                None
            }
            pto::TLoad::NAME | pto::TStore::NAME if op.operand_count() == 2 => {
                self.tile_copy(op, b, name == pto::TLoad::NAME)?;
                None
            }
            pto::TAdd::NAME | pto::TMax::NAME | pto::TMin::NAME | pto::TMul::NAME => {
                self.elementwise(op, b, name.trim_start_matches("pto."))?;
                None
            }
            pto::TFillPad::NAME | pto::TFillPadInplace::NAME => {
                self.fill_pad(op, b)?;
                None
            }
            _ => return super::rewriter::refuse(op, "is not simulated with these operands"),
        };
        Ok(Step::Replace(replacement))
    }

    /// `pto.alloc_tile`: a block the simulator allocates for the site, with
    /// its valid rows and columns set.
    fn alloc_tile(
        &mut self,
        op: OperationRef<'c, 'a>,
        b: &Builder<'c, 'a>,
        name: &str,
    ) -> Lowered<'c, 'a, Value<'c, 'a>> {
        let result: Value = op.result(0).expect("a result").into();
        let shape = self.tile(op, result)?;
        let view = pld_dialect::ops::OpView::new(op).expect("a registered op");
        let bytes = self.i64(b, TILE_HEADER + shape.rows * shape.cols * shape.bytes);
        let location = crate::compiler::locate::location_of(op);
        let site = self.i64(b, crate::runtime::sites::register(name, location));
        let tile = ir::result(self.call(b, "pld_sim_tile_alloc", &[site, bytes], &[self.pointer]));
        let extent = |group: &str, k: usize, physical: i64| {
            view.one(group)
                .unwrap_or_else(|| self.i64(b, shape.valid[k].unwrap_or(physical)))
        };
        let rows = extent("valid_row", 0, shape.rows);
        let cols = extent("valid_col", 1, shape.cols);
        self.set_valid(b, tile, rows, cols);
        self.tiles.insert(key(tile), shape);
        Ok(tile)
    }

    /// `pto.tload` (`load`) or `pto.tstore`: a checked copy between the
    /// tile's valid region and the view.
    fn tile_copy(
        &self,
        op: OperationRef<'c, 'a>,
        b: &Builder<'c, 'a>,
        load: bool,
    ) -> Lowered<'c, 'a> {
        let operand = |i| super::rewriter::operand(op, i);
        let (tile, view) = if load {
            (operand(1), operand(0))
        } else {
            (operand(0), operand(1))
        };
        let shape = self.tile(op, tile)?;
        let part = self.part(op, view)?;
        let [_, _, row_stride, col_stride] = self.block(b, &part);
        let (rows, cols) = self.valid(b, tile);
        let data = self.data(b, tile);
        let tile_strides = [self.i64(b, shape.cols), self.i64(b, 1)];
        let view_strides = [row_stride, col_stride];
        if load {
            self.copy(
                b,
                data,
                tile_strides,
                part.address,
                view_strides,
                rows,
                cols,
                shape.bytes,
                0,
            );
        } else {
            let accumulate = self.accumulate(op, shape.element)?;
            self.copy(
                b,
                part.address,
                view_strides,
                data,
                tile_strides,
                rows,
                cols,
                shape.bytes,
                accumulate,
            );
        }
        Ok(())
    }

    /// `pto.tfillpad` (and in place): the valid region copied when the
    /// tiles differ, the rest of the destination zeroed.
    fn fill_pad(&self, op: OperationRef<'c, 'a>, b: &Builder<'c, 'a>) -> Lowered<'c, 'a> {
        let operand = |i| super::rewriter::operand(op, i);
        let (src, dst) = (operand(0), operand(1));
        let shape = self.tile(op, dst)?;
        let (rows, cols) = self.valid(b, src);
        let target = self.data(b, dst);
        if key(src) != key(dst) {
            let source = self.data(b, src);
            let strides = [self.i64(b, shape.cols), self.i64(b, 1)];
            self.copy(
                b,
                target,
                strides,
                source,
                strides,
                rows,
                cols,
                shape.bytes,
                0,
            );
        }
        let physical_rows = self.i64(b, shape.rows);
        let physical_cols = self.i64(b, shape.cols);
        let element_bytes = b.i32(shape.bytes);
        self.call(
            b,
            "pld_sim_fill_pad",
            &[
                target,
                physical_rows,
                physical_cols,
                rows,
                cols,
                element_bytes,
            ],
            &[],
        );
        Ok(())
    }

    /// `dst = lhs (op) rhs` over dst's valid rows and columns, as loops
    /// LLVM can vectorise.
    fn elementwise(
        &self,
        op: OperationRef<'c, 'a>,
        b: &Builder<'c, 'a>,
        kind: &str,
    ) -> Lowered<'c, 'a> {
        let (lhs, rhs, dst) = (
            ir::operand(op, 0).expect("src0"),
            ir::operand(op, 1).expect("src1"),
            ir::operand(op, 2).expect("dst"),
        );
        let shape = self.tile(op, dst)?;
        let element = shape.element.to_string();
        let float = element.starts_with('f') || element == "bf16";
        let name = match (kind, float) {
            ("tadd", true) => "arith.addf",
            ("tmax", true) => "arith.maximumf",
            ("tmin", true) => "arith.minimumf",
            ("tmul", true) => "arith.mulf",
            ("tadd", false) => "arith.addi",
            ("tmax", false) => "arith.maxsi",
            ("tmin", false) => "arith.minsi",
            _ => {
                if float {
                    "arith.mulf"
                } else {
                    "arith.muli"
                }
            }
        };
        let (rows, cols) = self.valid(b, dst);
        let index = b.index_type();
        let (rows, cols) = (b.index_cast(rows, index), b.index_cast(cols, index));
        // A valid shape beyond the physical tile must not run off it.
        let physical_rows = b.index(shape.rows);
        let physical_cols = b.index(shape.cols);
        let (rows, cols) = (b.min(rows, physical_rows), b.min(cols, physical_cols));
        let (zero, one) = (b.index(0), b.index(1));
        let (lhs, rhs, dst) = (self.data(b, lhs), self.data(b, rhs), self.data(b, dst));
        let outer = b.for_loop(zero, rows, one, &[]);
        let stride = outer.body.index(shape.cols);
        let row_start = outer.body.mul(outer.induction, stride);
        let inner = outer.body.for_loop(zero, cols, one, &[]);
        let at = &inner.body;
        let position = at.add(row_start, inner.induction);
        let load = |base| {
            let address = self.offset(at, base, position, shape.element);
            at.value(llvm::load(
                self.context,
                address,
                shape.element,
                at.location,
                Default::default(),
            ))
        };
        let (x, y) = (load(lhs), load(rhs));
        let result = at.value(
            melior::ir::operation::OperationBuilder::new(name, at.location)
                .add_operands(&[x, y])
                .add_results(&[shape.element])
                .build()
                .expect("an arith op"),
        );
        let target = self.offset(at, dst, position, shape.element);
        at.insert(llvm::store(
            self.context,
            result,
            target,
            at.location,
            Default::default(),
        ));
        Ok(())
    }
}
