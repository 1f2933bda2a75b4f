//! Every MPI call of the simulator, over the C shim `csrc/mpi_shim.c`
//! (Open MPI's handles are addresses of globals and macros that bindgen
//! binds poorly; the shim turns the dozen calls pld needs into plain
//! functions). Nothing here runs unless a transport of
//! `crate::runtime::transport` asks for MPI: a process started without
//! `mpirun` never initialises it.
//!
//! One lock serialises the calls (MPI is initialised with
//! `MPI_THREAD_SERIALIZED`; a rank's builtin kernels run blocks on threads
//! of their own, which take turns here).

use std::ffi::c_void;
use std::sync::atomic::{AtomicI32, AtomicPtr, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

extern "C" {
    fn pld_mpi_launched() -> i32;
    fn pld_mpi_init(
        per_node: i32,
        rank: *mut i32,
        size: *mut i32,
        node_size: *mut i32,
        leader: *mut i32,
    ) -> i32;
    fn pld_mpi_win_create(memory: *mut c_void, bytes: usize, handle: *mut *mut c_void) -> i32;
    fn pld_mpi_finalize() -> i32;
    fn pld_mpi_barrier() -> i32;
    fn pld_mpi_error_string(code: i32, out: *mut u8, capacity: i32);
    fn pld_mpi_win_allocate(
        bytes: usize,
        shared: i32,
        base: *mut *mut c_void,
        handle: *mut *mut c_void,
    ) -> i32;
    fn pld_mpi_win_unified(handle: *mut c_void, unified: *mut i32) -> i32;
    fn pld_mpi_shared_query(handle: *mut c_void, rank: i32, base: *mut *mut c_void) -> i32;
    fn pld_mpi_win_free(handle: *mut c_void) -> i32;
    fn pld_mpi_get(handle: *mut c_void, out: *mut u8, bytes: usize, rank: i32, disp: usize) -> i32;
    fn pld_mpi_put(
        handle: *mut c_void,
        data: *const u8,
        bytes: usize,
        rank: i32,
        disp: usize,
    ) -> i32;
    fn pld_mpi_update_i32(
        handle: *mut c_void,
        value: i32,
        replace: i32,
        rank: i32,
        disp: usize,
    ) -> i32;
    fn pld_mpi_sum(
        handle: *mut c_void,
        kind: i32,
        data: *const u8,
        count: i32,
        stride: i32,
        rank: i32,
        disp: usize,
    ) -> i32;
    fn pld_mpi_compare_and_swap_u32(
        handle: *mut c_void,
        compare: u32,
        value: u32,
        rank: i32,
        disp: usize,
        seen: *mut u32,
    ) -> i32;
    fn pld_mpi_read_i32(handle: *mut c_void, rank: i32, disp: usize, out: *mut i32) -> i32;
    fn pld_mpi_store_i64(
        handle: *mut c_void,
        values: *const i64,
        count: i32,
        rank: i32,
        disp: usize,
    ) -> i32;
    fn pld_mpi_load_i64(
        handle: *mut c_void,
        out: *mut i64,
        count: i32,
        rank: i32,
        disp: usize,
    ) -> i32;
    fn pld_mpi_allgather_counts(mine: i64, counts: *mut i64) -> i32;
    fn pld_mpi_allgather_bytes(
        mine: *const u8,
        count: i32,
        counts: *const i32,
        displs: *const i32,
        out: *mut u8,
    ) -> i32;
}

/// The element types MPI adds atomically with `MPI_SUM` ([`Win::sum`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Summed {
    F32,
    I32,
}

impl Summed {
    fn bytes(self) -> usize {
        match self {
            Summed::F32 | Summed::I32 => 4,
        }
    }

    /// The shim's code for the type (`pld_mpi_sum`).
    fn code(self) -> i32 {
        match self {
            Summed::F32 => 0,
            Summed::I32 => 1,
        }
    }
}

/// The MPI job this process is part of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct World {
    /// This process's rank in `MPI_COMM_WORLD`.
    pub rank: usize,
    /// The processes of the job.
    pub size: usize,
    /// The processes on this machine (the shared-memory communicator).
    pub node_size: usize,
}

static WORLD: OnceLock<Result<World, String>> = OnceLock::new();
/// Every process's node, named by the world rank of its first process.
static LEADERS: OnceLock<Vec<usize>> = OnceLock::new();
/// Every process's host name, in rank order.
static HOSTS: OnceLock<Vec<String>> = OnceLock::new();

/// The test knob that splits each node further into pretended nodes of K
/// consecutive ranks (docs/tools/pld-run.md, "Running across machines").
pub const RANKS_PER_NODE: &str = "PLD_MPI_RANKS_PER_NODE";

/// Every process has this process's `PLD_MPI_RANKS_PER_NODE` (`per_node`,
/// 0 when unset): processes that count the nodes differently waited for
/// each other's node windows without end. Collective; the same refusal on
/// every process.
fn alike_per_node(per_node: i32, size: usize) -> Result<(), String> {
    let all = allgather_i64(i64::from(per_node), size)?;
    let shown = |k: i64| match k {
        0 => format!("{RANKS_PER_NODE} unset"),
        k if k == i64::from(NOT_A_COUNT) => {
            format!("{RANKS_PER_NODE} set to something other than a positive integer")
        }
        k => format!("{RANKS_PER_NODE}={k}"),
    };
    // One line for each process that differs, as for the options.
    let differing: Vec<String> = (1..all.len())
        .filter(|p| all[*p] != all[0])
        .map(|p| {
            format!(
                "process {p} was started with {} but process 0 with {}: every process must \
                 count the nodes alike",
                shown(all[p]),
                shown(all[0])
            )
        })
        .collect();
    match differing.is_empty() {
        true => Ok(()),
        false => Err(differing.join("\npld-run: error: ")),
    }
}

/// What a process whose `PLD_MPI_RANKS_PER_NODE` is malformed takes part
/// in MPI's start with.
const NOT_A_COUNT: i32 = -1;

/// `PLD_MPI_RANKS_PER_NODE` as a count (0 when unset), digits only, as
/// the other numeric variables are read.
fn ranks_per_node() -> Result<i32, String> {
    match std::env::var(RANKS_PER_NODE) {
        Err(_) => Ok(0),
        Ok(text) => text
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| text.parse::<i32>().ok())
            .flatten()
            .filter(|k| *k > 0)
            .ok_or_else(|| {
                format!(
                    "{RANKS_PER_NODE}={text}: the processes per pretended node must be a positive \
                 integer (at most {})",
                    i32::MAX
                )
            }),
    }
}
static LOCK: Mutex<()> = Mutex::new(());

/// The small shared window of the node's processes whose first cell (in
/// the part of the node's first process) counts the processes asleep in a
/// futex wait on a mapped cell (`transport::doze`): a notify makes the
/// wake-up system call only when that count is not 0.
static DOZERS: Mutex<Option<Win>> = Mutex::new(None);
/// That cell, mapped in this process (null until MPI is initialised and
/// after it is finalised).
static DOZERS_CELL: AtomicPtr<AtomicI32> = AtomicPtr::new(std::ptr::null_mut());

fn lock() -> MutexGuard<'static, ()> {
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// A one-sided transfer of this process: what `pld-run`'s watchdog names
/// when the MPI library is slow to complete them (Open MPI's one-sided
/// transfers progress slowly when other work keeps the cores busy, and the
/// run then looks like one that does not end).
#[derive(Clone, Copy, Debug)]
pub struct Transfer {
    /// The MPI calls, as `MPI_Put and MPI_Win_flush`.
    pub calls: &'static str,
    /// The process whose window they target.
    pub target: usize,
    /// The bytes they move.
    pub bytes: usize,
    /// When they began.
    pub since: Instant,
}

/// The largest transfer [`Transfers`] counts: a signal's cells, a board
/// (the time of larger ones grows with their bytes).
pub const SMALL_TRANSFER: usize = 4096;

/// This process's one-sided transfers so far.
#[derive(Clone, Copy, Debug, Default)]
pub struct Transfers {
    /// The one in progress.
    pub current: Option<Transfer>,
    /// How many of at most [`SMALL_TRANSFER`] bytes finished.
    pub count: u64,
    /// Their time, summed.
    pub busy: Duration,
    /// The longest of them, and how long it took.
    pub longest: Option<(Transfer, Duration)>,
}

static TRANSFERS: Mutex<Transfers> = Mutex::new(Transfers {
    current: None,
    count: 0,
    busy: Duration::ZERO,
    longest: None,
});

fn transfers() -> MutexGuard<'static, Transfers> {
    TRANSFERS.lock().unwrap_or_else(|e| e.into_inner())
}

/// This process's one-sided transfers: the one in progress and the
/// finished ones' count and time.
pub fn transfers_so_far() -> Transfers {
    *transfers()
}

/// The MPI lock, held for a one-sided transfer that [`transfers_so_far`]
/// shows in progress until it is dropped.
struct Transferring {
    _lock: MutexGuard<'static, ()>,
}

impl Drop for Transferring {
    fn drop(&mut self) {
        let mut all = transfers();
        if let Some(done) = all.current.take().filter(|t| t.bytes <= SMALL_TRANSFER) {
            let took = done.since.elapsed();
            all.count += 1;
            all.busy += took;
            if all.longest.is_none_or(|(_, longest)| took > longest) {
                all.longest = Some((done, took));
            }
        }
    }
}

/// Takes the MPI lock for `calls` moving `bytes` to or from `target`'s
/// window.
fn transferring(calls: &'static str, target: usize, bytes: usize) -> Transferring {
    let guard = lock();
    transfers().current = Some(Transfer {
        calls,
        target,
        bytes,
        since: Instant::now(),
    });
    Transferring { _lock: guard }
}

/// MPI's words for an error code.
fn describe(code: i32) -> String {
    let mut text = [0u8; 512];
    // SAFETY: the buffer has the capacity passed; the shim writes at most
    // capacity - 1 bytes and a NUL.
    unsafe { pld_mpi_error_string(code, text.as_mut_ptr(), text.len() as i32) };
    let end = text.iter().position(|&b| b == 0).unwrap_or(0);
    String::from_utf8_lossy(&text[..end]).into_owned()
}

fn check(what: &str, code: i32) -> Result<(), String> {
    match code {
        0 => Ok(()),
        code => Err(format!("{what} failed: {}", describe(code))),
    }
}

/// Whether this process was started by an MPI launcher (`mpirun`,
/// `srun`): its environment names a job.
pub fn launched() -> bool {
    // SAFETY: reads environment variables only.
    unsafe { pld_mpi_launched() != 0 }
}

/// The variables in which launchers give a process its rank: Open MPI's
/// `mpirun`, PMIx, MPICH's Hydra.
const RANK_VARIABLES: [&str; 3] = ["OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"];

/// This process's rank in the job as its launcher's environment gives it
/// (`OMPI_COMM_WORLD_RANK`, `PMIX_RANK`, `PMI_RANK`), before or without
/// MPI; `None` outside a launcher.
pub fn launcher_rank() -> Option<usize> {
    RANK_VARIABLES
        .iter()
        .find_map(|name| std::env::var(name).ok()?.trim().parse().ok())
}

/// The launcher's word that this process is one of several of a job, as
/// `NAME=value` of the variable that says so: a world size above 1
/// (`OMPI_COMM_WORLD_SIZE` of Open MPI's `mpirun`, `PMI_SIZE` of MPICH's
/// Hydra) or, where no size is given (a PMIx launcher), a rank above 0
/// (`PMIX_RANK`, and the others' rank variables); `None` outside a
/// launcher and as the only process of one (`mpirun -np 1`).
pub fn launcher_peers() -> Option<String> {
    peers_in(|name| std::env::var(name).ok())
}

/// [`launcher_peers`] over the environment `get` reads.
fn peers_in(get: impl Fn(&str) -> Option<String>) -> Option<String> {
    let above = |names: &[&str], floor: u64| {
        names.iter().find_map(|name| {
            let value = get(name)?;
            let number: u64 = value.trim().parse().ok()?;
            (number > floor).then(|| format!("{name}={value}"))
        })
    };
    above(&["OMPI_COMM_WORLD_SIZE", "PMI_SIZE"], 1).or_else(|| above(&RANK_VARIABLES, 0))
}

/// Initialises MPI once (later calls return the same world). Refused when
/// the process was not started by `mpirun`.
pub fn world() -> Result<World, String> {
    WORLD
        .get_or_init(|| {
            if !launched() {
                return Err(
                    "--transport mpi and mpi-rma run one rank per MPI process: start \
                     pld-run with mpirun (mpirun -np N, N the ranks)"
                        .into(),
                );
            }
            // A malformed count still joins MPI's start (as -1, which no
            // process splits by), so that every process hears of it.
            let per_node = ranks_per_node();
            let given = *per_node.as_ref().unwrap_or(&NOT_A_COUNT);
            let (mut rank, mut size, mut node, mut leader) = (0, 0, 0, 0);
            {
                let _guard = lock();
                // SAFETY: called once per process (the OnceLock), with four
                // valid out-pointers.
                check("MPI_Init_thread", unsafe {
                    pld_mpi_init(given, &mut rank, &mut size, &mut node, &mut leader)
                })?;
            }
            alike_per_node(given, size as usize)?;
            per_node?;
            let leaders = allgather_i64(i64::from(leader), size as usize)?;
            let _ = LEADERS.set(leaders.iter().map(|&l| l as usize).collect());
            let hosts = allgather_sized(host_name().as_bytes(), size as usize)?;
            let _ = HOSTS.set(
                hosts
                    .iter()
                    .map(|h| String::from_utf8_lossy(h).into_owned())
                    .collect(),
            );
            share_dozers()?;
            Ok(World {
                rank: rank as usize,
                size: size as usize,
                node_size: node as usize,
            })
        })
        .clone()
}

/// The world ranks of the processes on this process's node, in the node
/// communicator's order (empty before MPI is initialised).
pub fn node_members() -> Vec<usize> {
    let (Some(world), Some(leaders)) = (initialised(), LEADERS.get()) else {
        return Vec::new();
    };
    let mine = leaders[world.rank];
    (0..world.size).filter(|r| leaders[*r] == mine).collect()
}

/// This machine's host name as the kernel has it (in this process's UTS
/// namespace), `?` when it cannot be read.
fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "?".into())
}

/// One node of the job: its processes (world ranks, in order) and the
/// distinct host names they run on (one, as a rule: several when processes
/// of different host names share memory).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub processes: Vec<usize>,
    pub hosts: Vec<String>,
}

/// How the job was split into nodes, in the order of their first
/// processes (empty before MPI is initialised).
pub fn node_split() -> Vec<Node> {
    let (Some(leaders), Some(hosts)) = (LEADERS.get(), HOSTS.get()) else {
        return Vec::new();
    };
    let mut nodes: Vec<(usize, Node)> = Vec::new();
    for (rank, (&leader, host)) in leaders.iter().zip(hosts).enumerate() {
        let at = match nodes.iter().position(|(l, _)| *l == leader) {
            Some(at) => at,
            None => {
                let node = Node {
                    processes: Vec::new(),
                    hosts: Vec::new(),
                };
                nodes.push((leader, node));
                nodes.len() - 1
            }
        };
        let node = &mut nodes[at].1;
        node.processes.push(rank);
        if !node.hosts.contains(host) {
            node.hosts.push(host.clone());
        }
    }
    nodes.into_iter().map(|(_, node)| node).collect()
}

/// What split the job into nodes: MPI's shared-memory split, and then
/// the test knob's pretended nodes of K processes, if set.
pub fn split_by() -> String {
    let shared = "MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)";
    match ranks_per_node() {
        Ok(k) if k > 0 => format!("{shared} and {RANKS_PER_NODE}={k}"),
        Ok(_) | Err(_) => shared.into(),
    }
}

/// The nodes the job spans (real, or pretended by
/// [`RANKS_PER_NODE`]); 0 before MPI is initialised.
pub fn nodes() -> usize {
    let leaders = LEADERS.get().map_or(&[][..], Vec::as_slice);
    leaders
        .iter()
        .enumerate()
        .filter(|(r, l)| *r == **l)
        .count()
}

/// Every process's `mine`, in rank order (`MPI_Allgather` of one i64).
fn allgather_i64(mine: i64, size: usize) -> Result<Vec<i64>, String> {
    let mut all = vec![0i64; size];
    let _guard = lock();
    // SAFETY: `all` holds one i64 per process of the world.
    check("MPI_Allgather", unsafe {
        pld_mpi_allgather_counts(mine, all.as_mut_ptr())
    })?;
    Ok(all)
}

/// The world, if MPI was initialised (and did not fail).
pub fn initialised() -> Option<World> {
    WORLD.get().and_then(|w| w.as_ref().ok().copied())
}

/// Allocates the node's count of dozing processes (collective, once,
/// right after `MPI_Init`).
fn share_dozers() -> Result<(), String> {
    let win = Win::allocate(std::mem::size_of::<AtomicI32>(), true)?;
    let cell = win.shared_base(0)?;
    *DOZERS.lock().unwrap_or_else(|e| e.into_inner()) = Some(win);
    DOZERS_CELL.store(cell.cast(), Ordering::SeqCst);
    Ok(())
}

/// The node's count of processes asleep on a mapped cell, while MPI is
/// initialised.
pub fn dozers() -> Option<&'static AtomicI32> {
    let cell = DOZERS_CELL.load(Ordering::Relaxed);
    // SAFETY: non-null only while the window holding the (aligned, zeroed)
    // cell is alive; it is freed in `finalize`, after which no rank runs.
    (!cell.is_null()).then(|| unsafe { &*cell })
}

/// Ends MPI in this process, if it was initialised.
pub fn finalize() {
    if initialised().is_some() {
        DOZERS_CELL.store(std::ptr::null_mut(), Ordering::SeqCst);
        drop(DOZERS.lock().unwrap_or_else(|e| e.into_inner()).take());
        let _guard = lock();
        // SAFETY: MPI was initialised; every window was freed (they are
        // owned by comm domains, dropped before the tool returns).
        unsafe { pld_mpi_finalize() };
    }
}

/// `MPI_Barrier` on every process.
pub fn barrier() -> Result<(), String> {
    let _guard = lock();
    // SAFETY: MPI is initialised (a `World` exists before any caller).
    check("MPI_Barrier", unsafe { pld_mpi_barrier() })
}

/// Every process's `mine`, in rank order (`MPI_Allgatherv`).
pub fn allgather(mine: &[u8]) -> Result<Vec<Vec<u8>>, String> {
    allgather_sized(mine, initialised().map_or(1, |w| w.size))
}

/// [`allgather`] on a world of `size` processes (also while MPI is being
/// initialised, before the world is known).
fn allgather_sized(mine: &[u8], size: usize) -> Result<Vec<Vec<u8>>, String> {
    let counts = allgather_i64(mine.len() as i64, size)?;
    let _guard = lock();
    let total: i64 = counts.iter().sum();
    let limit = i64::from(i32::MAX);
    if total > limit {
        return Err(format!(
            "the ranks' reports are {total} bytes, more than MPI_Allgatherv moves (2 GiB)"
        ));
    }
    let ints: Vec<i32> = counts.iter().map(|&c| c as i32).collect();
    let displs: Vec<i32> = ints
        .iter()
        .scan(0, |at, &c| {
            let d = *at;
            *at += c;
            Some(d)
        })
        .collect();
    let mut out = vec![0u8; total as usize];
    // SAFETY: `mine` has `mine.len()` bytes (< 2 GiB: part of the total);
    // `out` has room for the sum of `counts`, placed at `displs`.
    check("MPI_Allgatherv", unsafe {
        pld_mpi_allgather_bytes(
            mine.as_ptr(),
            mine.len() as i32,
            ints.as_ptr(),
            displs.as_ptr(),
            out.as_mut_ptr(),
        )
    })?;
    Ok(ints
        .iter()
        .zip(&displs)
        .map(|(&c, &d)| out[d as usize..(d + c) as usize].to_vec())
        .collect())
}

/// A window on every process failed when the job spans nodes: say the
/// likely reason, MPI without a one-sided component that reaches the other
/// nodes (docs/tools/pld-run.md, "An emulated cluster").
fn across_nodes(error: String, shared: bool) -> String {
    if shared || nodes() < 2 {
        return error;
    }
    format!(
        "{error} (the job spans {} nodes, and no one-sided component of this MPI reaches the \
         processes of the others: Open MPI's osc/rdma needs a network with RDMA, and Debian's \
         Open MPI disables osc ucx and pt2pt in /etc/openmpi/openmpi-mca-params.conf; over TCP, \
         start mpirun with --mca osc sm,rdma,pt2pt)",
        nodes()
    )
}

/// An MPI window: `MPI_Win_allocate_shared` on the machine's processes
/// (`shared`) or `MPI_Win_allocate` on every process, zeroed, in one
/// passive access epoch to every process until it is dropped (which is
/// collective: every process drops its windows in the same order).
pub struct Win {
    handle: *mut c_void,
    base: *mut u8,
    len: usize,
}

// SAFETY: the handle is only used under the module's lock; the memory is
// plain memory of the process (or mapped from its peers).
unsafe impl Send for Win {}
unsafe impl Sync for Win {}

impl Win {
    /// A window of `bytes` bytes in this process (collective).
    pub fn allocate(bytes: usize, shared: bool) -> Result<Win, String> {
        let (mut base, mut handle) = (std::ptr::null_mut(), std::ptr::null_mut());
        let _guard = lock();
        // SAFETY: MPI is initialised; the out-pointers are valid.
        check("MPI_Win_allocate", unsafe {
            pld_mpi_win_allocate(bytes, i32::from(shared), &mut base, &mut handle)
        })
        .map_err(|e| across_nodes(e, shared))?;
        Ok(Win {
            handle,
            base: base.cast(),
            len: bytes,
        })
    }

    /// A window on every process over this process's part of `shared`
    /// (collective), through which the processes of other nodes reach it
    /// with RMA while this node's processes address it directly.
    pub fn create_over(shared: &Win) -> Result<Win, String> {
        let mut handle = std::ptr::null_mut();
        let _guard = lock();
        // SAFETY: MPI is initialised; the memory is this process's part of
        // `shared`, `len` bytes, which the caller keeps alive until this
        // window is freed (the comm domain frees it first); the
        // out-pointer is valid.
        check("MPI_Win_create", unsafe {
            pld_mpi_win_create(shared.base.cast(), shared.len, &mut handle)
        })
        .map_err(|e| across_nodes(e, false))?;
        Ok(Win {
            handle,
            base: shared.base,
            len: shared.len,
        })
    }

    /// This process's memory of the window.
    pub fn base(&self) -> *mut u8 {
        self.base
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the window is in MPI's unified memory model.
    pub fn unified(&self) -> Result<bool, String> {
        let mut unified = 0;
        let _guard = lock();
        // SAFETY: a live window handle and a valid out-pointer.
        check("MPI_Win_get_attr", unsafe {
            pld_mpi_win_unified(self.handle, &mut unified)
        })?;
        Ok(unified != 0)
    }

    /// Where process `rank` (of the node communicator) has its part of a
    /// shared window, mapped in this process.
    pub fn shared_base(&self, rank: usize) -> Result<*mut u8, String> {
        let mut base = std::ptr::null_mut();
        let _guard = lock();
        // SAFETY: a live shared window and a valid out-pointer; MPI checks
        // the rank against the window's (node) communicator.
        check("MPI_Win_shared_query", unsafe {
            pld_mpi_shared_query(self.handle, rank as i32, &mut base)
        })?;
        Ok(base.cast())
    }

    /// `out.len()` bytes of `rank`'s window from byte `offset`.
    pub fn get(&self, rank: usize, offset: usize, out: &mut [u8]) -> Result<(), String> {
        let _guard = transferring("MPI_Get and MPI_Win_flush", rank, out.len());
        // SAFETY: `out` is valid for its length; MPI checks the target
        // range against the window (an error, not a fault).
        check("MPI_Get", unsafe {
            pld_mpi_get(
                self.handle,
                out.as_mut_ptr(),
                out.len(),
                rank as i32,
                offset,
            )
        })
    }

    /// `data` into `rank`'s window at byte `offset`, complete there on
    /// return.
    pub fn put(&self, rank: usize, offset: usize, data: &[u8]) -> Result<(), String> {
        let _guard = transferring("MPI_Put and MPI_Win_flush", rank, data.len());
        // SAFETY: `data` is valid for its length; MPI checks the target
        // range.
        check("MPI_Put", unsafe {
            pld_mpi_put(self.handle, data.as_ptr(), data.len(), rank as i32, offset)
        })
    }

    /// Adds `value` to (or, `replace`, stores it in) the i32 cell at byte
    /// `offset` of `rank`'s window, atomically, complete on return.
    pub fn update_i32(
        &self,
        rank: usize,
        offset: usize,
        value: i32,
        replace: bool,
    ) -> Result<(), String> {
        let _guard = transferring("MPI_Accumulate and MPI_Win_flush", rank, 4);
        // SAFETY: plain values; MPI checks the target.
        check("MPI_Accumulate", unsafe {
            pld_mpi_update_i32(self.handle, value, i32::from(replace), rank as i32, offset)
        })
    }

    /// Adds the `ty` values in `data` into `rank`'s window from byte
    /// `offset`, one every `stride` elements, each add atomic against every
    /// other process's (`MPI_Accumulate`, `MPI_SUM`); complete on return.
    pub fn sum(
        &self,
        rank: usize,
        offset: usize,
        ty: Summed,
        data: &[u8],
        stride: usize,
    ) -> Result<(), String> {
        let count = i32::try_from(data.len() / ty.bytes()).map_err(|_| "a row too long for MPI")?;
        let stride = i32::try_from(stride).map_err(|_| "a stride too large for MPI")?;
        let _guard = transferring("MPI_Accumulate and MPI_Win_flush", rank, data.len());
        // SAFETY: `data` holds `count` values of `ty`; MPI checks the
        // (strided) target range against the window.
        check("MPI_Accumulate", unsafe {
            pld_mpi_sum(
                self.handle,
                ty.code(),
                data.as_ptr(),
                count,
                stride,
                rank as i32,
                offset,
            )
        })
    }

    /// Stores `value` in the (4-byte aligned) u32 at byte `offset` of
    /// `rank`'s window if it holds `compare`, atomically
    /// (`MPI_Compare_and_swap`); returns what it held.
    pub fn compare_and_swap_u32(
        &self,
        rank: usize,
        offset: usize,
        compare: u32,
        value: u32,
    ) -> Result<u32, String> {
        let mut seen = 0;
        let _guard = transferring("MPI_Compare_and_swap and MPI_Win_flush", rank, 4);
        // SAFETY: plain values and a valid out-pointer; MPI checks the
        // target.
        check("MPI_Compare_and_swap", unsafe {
            pld_mpi_compare_and_swap_u32(
                self.handle,
                compare,
                value,
                rank as i32,
                offset,
                &mut seen,
            )
        })?;
        Ok(seen)
    }

    /// The i32 cell at byte `offset` of `rank`'s window, read atomically.
    pub fn read_i32(&self, rank: usize, offset: usize) -> Result<i32, String> {
        let mut value = 0;
        let _guard = transferring("MPI_Fetch_and_op and MPI_Win_flush_local", rank, 4);
        // SAFETY: a valid out-pointer; MPI checks the target.
        check("MPI_Fetch_and_op", unsafe {
            pld_mpi_read_i32(self.handle, rank as i32, offset, &mut value)
        })?;
        Ok(value)
    }

    /// `values` into `rank`'s window at byte `offset`, each atomically.
    pub fn store_i64(&self, rank: usize, offset: usize, values: &[i64]) -> Result<(), String> {
        let _guard = transferring("MPI_Accumulate and MPI_Win_flush", rank, values.len() * 8);
        // SAFETY: `values` is valid for its length; MPI checks the target.
        check("MPI_Accumulate", unsafe {
            pld_mpi_store_i64(
                self.handle,
                values.as_ptr(),
                values.len() as i32,
                rank as i32,
                offset,
            )
        })
    }

    /// `out.len()` i64 values of `rank`'s window from byte `offset`, each
    /// read atomically.
    pub fn load_i64(&self, rank: usize, offset: usize, out: &mut [i64]) -> Result<(), String> {
        let _guard = transferring("MPI_Get_accumulate and MPI_Win_flush", rank, out.len() * 8);
        // SAFETY: `out` is valid for its length; MPI checks the target.
        check("MPI_Get_accumulate", unsafe {
            pld_mpi_load_i64(
                self.handle,
                out.as_mut_ptr(),
                out.len() as i32,
                rank as i32,
                offset,
            )
        })
    }
}

impl Drop for Win {
    fn drop(&mut self) {
        let _guard = lock();
        // SAFETY: a live window, freed once; every process frees its
        // windows in the same order (the comm domains of a run are made and
        // dropped in lockstep).
        unsafe { pld_mpi_win_free(self.handle) };
    }
}

#[cfg(test)]
mod tests {
    use super::peers_in;

    fn peers(environment: &[(&str, &str)]) -> Option<String> {
        peers_in(|name| {
            environment
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        })
    }

    #[test]
    fn a_launcher_with_peers_is_seen_by_its_variables() {
        assert_eq!(peers(&[]), None);
        // mpirun -np 1: the only process.
        let alone = [("OMPI_COMM_WORLD_SIZE", "1"), ("OMPI_COMM_WORLD_RANK", "0")];
        assert_eq!(peers(&alone), None);
        let open_mpi = [("OMPI_COMM_WORLD_SIZE", "4"), ("OMPI_COMM_WORLD_RANK", "0")];
        assert_eq!(peers(&open_mpi).as_deref(), Some("OMPI_COMM_WORLD_SIZE=4"));
        assert_eq!(
            peers(&[("PMI_SIZE", "2"), ("PMI_RANK", "0")]).as_deref(),
            Some("PMI_SIZE=2")
        );
        // PMIx gives no size: a rank above 0 says there are others.
        assert_eq!(peers(&[("PMIX_RANK", "0")]), None);
        assert_eq!(peers(&[("PMIX_RANK", "3")]).as_deref(), Some("PMIX_RANK=3"));
        assert_eq!(peers(&[("PMI_SIZE", "x")]), None);
    }
}
