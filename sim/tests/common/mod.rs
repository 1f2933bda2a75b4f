//! A harness for running one compiled kernel on simulated ranks: each
//! parameter is a buffer in every rank's window (a distributed tensor) or a
//! rank-private buffer (a plain tensor); the CommContexts of the window
//! parameters follow, as `pld-materialize-dist-tensor-ctx` orders them.

#![allow(dead_code)]

use pld_sim::compile::{to_pto, Compiled};
use pld_sim::{aligned, CommDomain, Outcome, Run};
use std::sync::Mutex;
use std::time::Duration;

#[derive(Clone, Copy)]
pub enum Param {
    /// A distributed tensor of this many bytes, in the window.
    Window(usize),
    /// A plain tensor of this many bytes, private to the rank.
    Local(usize),
}

/// The buffers of every rank after the run, per parameter.
pub struct Finished {
    pub outcome: Outcome,
    /// `buffers[rank][param]`.
    pub buffers: Vec<Vec<Vec<u8>>>,
    /// Byte offsets of the window parameters (`None` for local ones).
    pub offsets: Vec<Option<usize>>,
    pub domain: CommDomain,
}

/// Compiles `source` (pld) through pld-to-pto and runs `kernel` on
/// `ranks` ranks; `init(rank, param)` gives each buffer's initial bytes.
pub fn run(
    source: &str,
    kernel: &str,
    ranks: usize,
    params: &[Param],
    init: impl Fn(usize, usize) -> Vec<u8>,
) -> Finished {
    let pto = to_pto(source).unwrap_or_else(|e| panic!("{source}\n{e}"));
    let compiled = Compiled::from_text(&pto).unwrap_or_else(|e| panic!("{e}"));
    let entry = compiled.kernel(kernel).expect("the kernel is compiled");
    let mut offsets = Vec::new();
    let mut window_bytes = 0;
    for param in params {
        match param {
            Param::Window(bytes) => {
                offsets.push(Some(window_bytes));
                window_bytes += aligned(*bytes);
            }
            Param::Local(_) => offsets.push(None),
        }
    }
    let domain = CommDomain::new(ranks, window_bytes.max(32)).unwrap();
    let locals: Vec<Vec<Mutex<Vec<u8>>>> = (0..ranks)
        .map(|rank| {
            params
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let bytes = init(rank, i);
                    match p {
                        Param::Window(size) => {
                            assert_eq!(bytes.len(), *size, "init of parameter {i}");
                            assert!(domain.window(rank).write(offsets[i].unwrap(), &bytes));
                            Mutex::new(Vec::new())
                        }
                        Param::Local(size) => {
                            assert_eq!(bytes.len(), *size, "init of parameter {i}");
                            Mutex::new(bytes)
                        }
                    }
                })
                .collect()
        })
        .collect();
    let outcome = Run::new(&domain, Duration::from_secs(5)).execute(kernel, |env| {
        let mut guards: Vec<_> = locals[env.rank].iter().map(|m| m.lock().unwrap()).collect();
        let mut values: Vec<*mut ()> = Vec::new();
        for (i, param) in params.iter().enumerate() {
            values.push(match param {
                Param::Window(_) => {
                    // SAFETY: the offset is inside the window (sized above).
                    let base = env.domain.window(env.rank).base();
                    unsafe { base.add(offsets[i].unwrap()) as *mut () }
                }
                Param::Local(_) => guards[i].as_mut_ptr() as *mut (),
            });
        }
        for param in params {
            if let Param::Window(_) = param {
                values.push(env.domain.context(env.rank) as *mut ());
            }
        }
        let mut arguments: Vec<*mut ()> = values
            .iter_mut()
            .map(|v| v as *mut *mut () as *mut ())
            .collect();
        // SAFETY: one pointer per parameter, each to a pointer of the right
        // buffer; the buffers outlive the call.
        unsafe { entry.call(&mut arguments) };
    });
    let buffers = (0..ranks)
        .map(|rank| {
            params
                .iter()
                .enumerate()
                .map(|(i, p)| match p {
                    Param::Window(size) => {
                        let mut bytes = vec![0; *size];
                        assert!(domain.window(rank).read(offsets[i].unwrap(), &mut bytes));
                        bytes
                    }
                    Param::Local(_) => locals[rank][i].lock().unwrap().clone(),
                })
                .collect()
        })
        .collect();
    Finished {
        outcome,
        buffers,
        offsets,
        domain,
    }
}

pub fn f32s(values: impl IntoIterator<Item = f32>) -> Vec<u8> {
    values.into_iter().flat_map(|v| v.to_le_bytes()).collect()
}

pub fn i32s(values: impl IntoIterator<Item = i32>) -> Vec<u8> {
    values.into_iter().flat_map(|v| v.to_le_bytes()).collect()
}

pub fn as_f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

pub fn as_i32s(bytes: &[u8]) -> Vec<i32> {
    bytes
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
