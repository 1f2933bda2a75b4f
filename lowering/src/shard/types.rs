//! The values of a shard program as the conversion sees them: static
//! tensor types, and integers that depend on the device.

/// A static tensor type: its shape and element type. A rank-0 tensor is
/// held as shape `[1]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorType {
    pub shape: Vec<usize>,
    /// The element type as MLIR spells it (`f32`).
    pub elem: String,
    /// Bytes per element.
    pub bytes: usize,
}

impl TensorType {
    pub fn new(shape: Vec<usize>, elem: &str, bytes: usize) -> TensorType {
        let shape = if shape.is_empty() { vec![1] } else { shape };
        TensorType {
            shape,
            elem: elem.to_string(),
            bytes,
        }
    }

    /// The same element type with another shape.
    pub fn reshaped(&self, shape: Vec<usize>) -> TensorType {
        TensorType::new(shape, &self.elem, self.bytes)
    }

    pub fn elements(&self) -> usize {
        self.shape.iter().product()
    }

    pub fn size_bytes(&self) -> usize {
        self.elements() * self.bytes
    }

    /// `(P, D, Q)`: the elements before, along and after `axis`, so the
    /// tensor is a `[P, D, Q]` block.
    pub fn around(&self, axis: usize) -> (usize, usize, usize) {
        let before = self.shape[..axis].iter().product();
        let after = self.shape[axis + 1..].iter().product();
        (before, self.shape[axis], after)
    }

    /// The window-view type of a buffer of this type:
    /// `tensor<8x4xf32, #pld.dist>`.
    pub fn dist(&self) -> String {
        format!("tensor<{}, #pld.dist>", self.shape_text())
    }

    /// `8x4xf32`.
    pub fn shape_text(&self) -> String {
        let dims: Vec<String> = self.shape.iter().map(usize::to_string).collect();
        format!("{}x{}", dims.join("x"), self.elem)
    }
}

/// An integer that depends on the device: one value per device of the
/// grid, indexed by the device's linear index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerDevice(pub Vec<i64>);

impl PerDevice {
    /// `value` on each of `devices`.
    pub fn constant(devices: usize, value: i64) -> PerDevice {
        PerDevice(vec![value; devices])
    }

    /// From one value per device.
    pub fn from_fn(devices: usize, f: impl Fn(usize) -> i64) -> PerDevice {
        PerDevice((0..devices).map(f).collect())
    }

    /// The value, when every device has the same.
    pub fn as_constant(&self) -> Option<i64> {
        let first = *self.0.first()?;
        self.0.iter().all(|v| *v == first).then_some(first)
    }

    /// `f` of the values of `self` and `other`, device by device.
    pub fn zip(&self, other: &PerDevice, f: impl Fn(i64, i64) -> Option<i64>) -> Option<PerDevice> {
        self.0
            .iter()
            .zip(&other.0)
            .map(|(a, b)| f(*a, *b))
            .collect::<Option<Vec<_>>>()
            .map(PerDevice)
    }

    /// `f` of each device's pair, or the first device where it has none.
    pub fn try_zip(
        &self,
        other: &PerDevice,
        f: impl Fn(i64, i64) -> Option<i64>,
    ) -> Result<PerDevice, usize> {
        self.0
            .iter()
            .zip(&other.0)
            .enumerate()
            .map(|(device, (a, b))| f(*a, *b).ok_or(device))
            .collect::<Result<Vec<_>, _>>()
            .map(PerDevice)
    }

    /// `(a, b)` when the value is `a * device + b` on every device.
    pub fn as_affine(&self) -> Option<(i64, i64)> {
        let b = *self.0.first()?;
        let a = self.0.get(1).map_or(0, |v| v - b);
        let fits = self
            .0
            .iter()
            .enumerate()
            .all(|(d, v)| Some(*v) == a.checked_mul(d as i64).and_then(|x| x.checked_add(b)));
        fits.then_some((a, b))
    }

    /// `(div, modulus, scale, add)` when the value is
    /// `((device / div) % modulus) * scale + add` on every device, for the
    /// smallest such `div` and `modulus` (a grid coordinate, scaled).
    pub fn as_digit(&self) -> Option<(i64, i64, i64, i64)> {
        let n = self.0.len() as i64;
        for div in 1..=n {
            for modulus in 2..=n {
                let digit = |d: i64| (d / div) % modulus;
                let add = self.0[0];
                let Some(d1) = (0..n).find(|&d| digit(d) == 1) else {
                    continue;
                };
                let scale = self.0[d1 as usize] - add;
                let fits = (0..n).all(|d| self.0[d as usize] == digit(d) * scale + add);
                if fits {
                    return Some((div, modulus, scale, add));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grid_coordinate_reads_as_a_digit() {
        // Axis 1 of a 2x4 grid, scaled by 8 rows.
        let v = PerDevice::from_fn(8, |d| (d % 4) as i64 * 8);
        assert_eq!(v.as_affine(), None);
        assert_eq!(v.as_digit(), Some((1, 4, 8, 0)));
        let w = PerDevice::from_fn(8, |d| (d / 4) as i64 * 3 + 1);
        assert_eq!(w.as_digit(), Some((4, 2, 3, 1)));
    }

    #[test]
    fn affine_values_read_as_such() {
        assert_eq!(
            PerDevice::from_fn(4, |d| 5 * d as i64 + 2).as_affine(),
            Some((5, 2))
        );
        assert_eq!(PerDevice::constant(4, 7).as_constant(), Some(7));
        assert_eq!(PerDevice(vec![0, 2, 5, 9]).as_digit(), None);
    }

    #[test]
    fn the_block_around_an_axis() {
        let t = TensorType::new(vec![2, 3, 4], "f32", 4);
        assert_eq!(t.around(1), (2, 3, 4));
        assert_eq!(t.around(0), (1, 2, 12));
        assert_eq!(t.dist(), "tensor<2x3x4xf32, #pld.dist>");
    }
}
