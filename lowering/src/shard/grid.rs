//! A static `shard.grid` and the device groups its collectives name.
//!
//! Devices are numbered row-major over the grid's shape (upstream's
//! `process_linear_index`). A collective's `grid_axes` split the devices
//! into groups: the devices that differ only along those axes. Inside a
//! group two orders matter:
//!
//! * the **key**, the shard dialect's in-group index: the device's
//!   coordinates along `grid_axes`, linearised row-major in the order the
//!   axes are *listed* (`grid_axes = [1, 0]` makes axis 1 the major one);
//! * the **rank**, the device's position in the group's pld comm domain,
//!   whose devices are ascending: the coordinates linearised in *ascending*
//!   axis order.
//!
//! Both are the same when `grid_axes` is ascending; [`Groups::key_at`]
//! maps one to the other where it is not.

/// A grid of devices with a static shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub name: String,
    pub shape: Vec<usize>,
}

impl Grid {
    /// The number of devices.
    pub fn devices(&self) -> usize {
        self.shape.iter().product()
    }

    /// The coordinates of `device` (row-major unlinearisation).
    pub fn coords(&self, device: usize) -> Vec<usize> {
        let mut coords = vec![0; self.shape.len()];
        let mut rest = device;
        for (axis, size) in self.shape.iter().enumerate().rev() {
            coords[axis] = rest % size;
            rest /= size;
        }
        coords
    }

    /// The coordinates of `device` along `axes`, linearised row-major in
    /// the order `axes` lists them.
    pub fn linear_along(&self, device: usize, axes: &[usize]) -> usize {
        let coords = self.coords(device);
        axes.iter()
            .fold(0, |acc, &axis| acc * self.shape[axis] + coords[axis])
    }

    /// The groups of a collective over `axes` (each axis a valid, distinct
    /// axis of the grid).
    pub fn groups(&self, axes: &[usize]) -> Groups {
        let mut sorted = axes.to_vec();
        sorted.sort_unstable();
        let others: Vec<usize> = (0..self.shape.len())
            .filter(|a| !axes.contains(a))
            .collect();
        let size: usize = axes.iter().map(|&a| self.shape[a]).product();
        let count = self.devices() / size.max(1);
        let mut members = vec![Vec::with_capacity(size); count];
        let (mut group, mut rank, mut key) = (Vec::new(), Vec::new(), Vec::new());
        for device in 0..self.devices() {
            let g = self.linear_along(device, &others);
            members[g].push(device);
            group.push(g);
            rank.push(self.linear_along(device, &sorted));
            key.push(self.linear_along(device, axes));
        }
        Groups {
            members,
            group,
            rank,
            key,
        }
    }
}

/// The partition of a grid's devices into the groups of one collective.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Groups {
    /// Each group's devices, ascending: a comm domain's order, so a
    /// device's position is its pld rank.
    pub members: Vec<Vec<usize>>,
    group: Vec<usize>,
    rank: Vec<usize>,
    key: Vec<usize>,
}

impl Groups {
    /// Every one of `devices` in one group.
    pub fn world(devices: usize) -> Groups {
        Groups {
            members: vec![(0..devices).collect()],
            group: vec![0; devices],
            rank: (0..devices).collect(),
            key: (0..devices).collect(),
        }
    }

    /// The devices in one group.
    pub fn size(&self) -> usize {
        self.members.first().map_or(0, Vec::len)
    }

    /// Whether there is one group of every device.
    pub fn is_world(&self) -> bool {
        self.members.len() == 1
    }

    /// The group `device` is in.
    pub fn group_of(&self, device: usize) -> usize {
        self.group[device]
    }

    /// The pld rank of `device` in its group.
    pub fn rank_of(&self, device: usize) -> usize {
        self.rank[device]
    }

    /// The shard key of `device` in its group.
    pub fn key_of(&self, device: usize) -> usize {
        self.key[device]
    }

    /// The key of the member at `rank` (the same in every group).
    pub fn key_at(&self, rank: usize) -> usize {
        self.key[self.members[0][rank]]
    }

    /// The rank of the member whose key is `key`.
    pub fn rank_with_key(&self, key: usize) -> usize {
        (0..self.size())
            .find(|&r| self.key_at(r) == key)
            .unwrap_or(0)
    }

    /// Whether keys and ranks agree (`grid_axes` listed ascending).
    pub fn keys_are_ranks(&self) -> bool {
        (0..self.size()).all(|r| self.key_at(r) == r)
    }

    /// Every device's rank, by device.
    pub fn ranks(&self) -> &[usize] {
        &self.rank
    }

    /// Every device's key, by device.
    pub fn keys(&self) -> &[usize] {
        &self.key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid() -> Grid {
        Grid {
            name: "g".into(),
            shape: vec![2, 4],
        }
    }

    #[test]
    fn rows_of_a_2x4_grid_are_the_groups_of_axis_1() {
        let groups = grid().groups(&[1]);
        assert_eq!(groups.members, vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]]);
        assert_eq!(groups.key_of(6), 2);
        assert_eq!(groups.rank_of(6), 2);
        assert_eq!(groups.group_of(6), 1);
    }

    #[test]
    fn columns_of_a_2x4_grid_are_the_groups_of_axis_0() {
        let groups = grid().groups(&[0]);
        assert_eq!(groups.members.len(), 4);
        assert_eq!(groups.members[1], vec![1, 5]);
        assert_eq!(groups.key_of(5), 1);
    }

    #[test]
    fn a_reversed_axis_list_permutes_keys_against_ranks() {
        let groups = Grid {
            name: "g".into(),
            shape: vec![2, 2],
        }
        .groups(&[1, 0]);
        assert_eq!(groups.members, vec![vec![0, 1, 2, 3]]);
        // Device 1 is (0, 1): rank 0*2+1 = 1, key 1*2+0 = 2.
        assert_eq!((groups.rank_of(1), groups.key_of(1)), (1, 2));
        assert_eq!(groups.rank_with_key(2), 1);
        assert!(!groups.keys_are_ranks());
    }

    #[test]
    fn no_axes_make_groups_of_one() {
        let groups = grid().groups(&[]);
        assert_eq!(groups.members.len(), 8);
        assert_eq!(groups.size(), 1);
    }
}
