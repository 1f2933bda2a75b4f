//! From a converted module to machine code: the sim-only lowering, MLIR's
//! LLVM lowering, and MLIR's JIT ([`pld_ir::engine::Engine`]), with the
//! simulator's device functions registered as the symbols the kernels
//! call.

use super::cache;
use super::diag::render;
use crate::runtime::ffi;
use melior::{
    ir::{block::BlockLike, operation::OperationLike, Module, RegionLike},
    Context,
};
use pld_ir::engine::Engine;
use std::collections::HashMap;

/// A kernel's packed entry point: `void f(void **arguments)`, where
/// `arguments[i]` points at the value of parameter `i`.
#[derive(Clone, Copy)]
pub struct Kernel<'a> {
    entry: unsafe extern "C" fn(*mut *mut ()),
    /// The machine code lives as long as the `Compiled` it came from.
    _code: std::marker::PhantomData<&'a ()>,
}

impl Kernel<'_> {
    /// Calls the kernel.
    ///
    /// # Safety
    ///
    /// `arguments` must hold one pointer per kernel parameter, each to a
    /// value of the parameter's type, and every address passed must be
    /// valid for what the kernel does with it.
    pub unsafe fn call(&self, arguments: &mut [*mut ()]) {
        // SAFETY: the caller upholds the contract above; `entry` is the
        // packed wrapper of a kernel whose code `'a` keeps alive.
        unsafe { (self.entry)(arguments.as_mut_ptr()) }
    }
}

/// The compiled kernels of one module.
pub struct Compiled {
    _code: Code,
    kernels: HashMap<String, unsafe extern "C" fn(*mut *mut ())>,
    /// Whether the code came from the disk cache.
    cache: cache::Use,
}

/// Where a module's machine code lives: the JIT that compiled it, or the
/// object file of an earlier compile, loaded (`super::cache`).
enum Code {
    Engine {
        _engine: Engine,
    },
    Object {
        _jit: pld_ir::orc::ObjectJit,
    },
    /// A module without kernels (a program of HOST builtins and CHIP
    /// tasks only): nothing to compile, run or keep code for.
    Nothing,
}

/// A module compiled for the simulator, before it is kept: its code, the
/// addresses of its kernels and, when asked for, its object file.
struct Compiling {
    compiled: Compiled,
    object: Option<Vec<u8>>,
    sites: std::ops::Range<i64>,
}

impl Compiled {
    /// Compiles every kernel (function with `pto.kernel_kind`) of a
    /// converted module, given as text. Errors name the op and location.
    pub fn from_text(text: &str) -> Result<Self, String> {
        Self::from_text_named(text, "<lowered>")
    }

    /// `from_text` of a module named `source_name`: ops without a location
    /// of their own are located in it (a converted module the user wrote).
    pub fn from_text_named(text: &str, source_name: &str) -> Result<Self, String> {
        Ok(Self::compile(text, source_name, None)?.compiled)
    }

    /// Compiles `text` (see `from_text_named`); with `dump`, keeps the
    /// object file the JIT made (for the disk cache), written to that
    /// file and read back.
    fn compile(
        text: &str,
        source_name: &str,
        dump: Option<&std::path::Path>,
    ) -> Result<Compiling, String> {
        let context = pld_dialect::context();
        melior::utility::register_all_llvm_translations(&context);
        let sink = pld_ir::diag::Sink::attach(&context);
        // pld_ir's parser takes any bytes (melior's panics on a NUL).
        let Some(mut module) = pld_ir::parse::parse(&context, text, source_name) else {
            return Err(format!("the module does not parse: {}", render(&sink)));
        };
        let (converted, sites) = crate::runtime::sites::numbered(|| {
            // Affine maps and integer powers first, so that the divisions
            // they become are guarded as the kernel's own (a semi-affine
            // `mod` by a zero symbol faulted); math ops of libm's are calls
            // of it, after (convert-math-to-libm; `math.erf` and
            // `math.cbrt` failed as "could not convert to LLVM IR").
            run_pipeline(
                &context,
                &mut module,
                "builtin.module(lower-affine,convert-math-to-funcs,convert-pto-to-sim)",
            )
        });
        converted.map_err(|e| e.unwrap_or_else(|| render(&sink)))?;
        if !module.as_operation().verify() {
            return Err(format!(
                "the lowered module does not verify: {}",
                render(&sink)
            ));
        }
        let names = kernel_names(&module);
        // LLVM's JIT names symbols by C strings: a NUL cut the name short,
        // and the lookups failed or crashed (recheck27b H1).
        if let Some(cut) = names.iter().find(|n| n.contains('\0')) {
            return Err(format!(
                "{} has {}",
                pld_ir::print::symbol_ref(cut),
                pld_dialect::query::NUL_IN_NAME
            ));
        }
        if names.is_empty() {
            return Ok(Compiling {
                compiled: Compiled {
                    _code: Code::Nothing,
                    kernels: HashMap::new(),
                    cache: cache::Use::Off(cache::Off::Asked),
                },
                object: dump.map(|_| Vec::new()),
                sites,
            });
        }
        run_pipeline(
            &context,
            &mut module,
            "builtin.module(lower-affine,convert-math-to-libm,convert-scf-to-cf,convert-to-llvm,reconcile-unrealized-casts)",
        )
        .map_err(|e| {
            format!(
                "lowering to LLVM failed: {}",
                e.unwrap_or_else(|| render(&sink))
            )
        })?;
        let engine = Engine::new(&module, OPT_LEVEL, dump.is_some())
            .map_err(|e| format!("compiling to machine code failed: {e}"))?;
        for (name, address) in ffi::DEVICE_FUNCTIONS {
            // SAFETY: each entry is the Rust implementation of the device
            // function of that name, with the signature `pld_sim.h`
            // declares and the lowering calls it with (checked by a test).
            unsafe { engine.register_symbol(name, *address) };
        }
        let kernels = entries(&names, |symbol| match engine.lookup(symbol) {
            entry if entry.is_null() => Err(String::new()),
            entry => Ok(entry),
        })?;
        let object = dump.and_then(|file| dump_object(&engine, file));
        Ok(Compiling {
            compiled: Compiled {
                _code: Code::Engine { _engine: engine },
                kernels,
                cache: cache::Use::Off(cache::Off::Asked),
            },
            object,
            sites,
        })
    }

    /// `from_text`, remembered by the text's content hash for the life of
    /// the calling thread (the JIT's code is not shared across threads),
    /// and on disk (`super::cache`: the object file, loaded back by a later
    /// process instead of compiling), so running a kernel again does not
    /// compile it again.
    pub fn cached(text: &str) -> Result<std::rc::Rc<Self>, String> {
        Self::cached_named(text, "<lowered>")
    }

    /// `cached` of a module named `source_name` (see `from_text_named`).
    pub fn cached_named(text: &str, source_name: &str) -> Result<std::rc::Rc<Self>, String> {
        use std::hash::{Hash, Hasher};
        thread_local! {
            static CACHE: std::cell::RefCell<HashMap<u64, std::rc::Rc<Compiled>>> =
                std::cell::RefCell::new(HashMap::new());
        }
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (text, source_name).hash(&mut hasher);
        let key = hasher.finish();
        if let Some(hit) = CACHE.with(|c| c.borrow().get(&key).cloned()) {
            return Ok(hit);
        }
        let compiled = std::rc::Rc::new(Self::on_disk(text, source_name)?);
        CACHE.with(|c| c.borrow_mut().insert(key, compiled.clone()));
        Ok(compiled)
    }

    /// The module's code from the disk cache, or compiled (and stored
    /// there when the cache can take it).
    fn on_disk(text: &str, source_name: &str) -> Result<Self, String> {
        let off = |off| -> Result<Self, String> {
            let mut compiled = Self::from_text_named(text, source_name)?;
            compiled.cache = cache::Use::Off(off);
            Ok(compiled)
        };
        let cache = match cache::place()? {
            cache::Place::On(_) if !pld_ir::orc::ObjectJit::available() => {
                return off(cache::Off::Unsupported)
            }
            cache::Place::On(cache) => cache,
            cache::Place::Off(why) => return off(why),
        };
        let key = cache::key(
            cache::Kind::Object,
            &[&OPT_LEVEL.to_string(), source_name, text],
        );
        if let Some(loaded) = cache.load(cache::Kind::Object, &key).and_then(Self::load) {
            return Ok(loaded);
        }
        // A cache that cannot take the entry gets no object dumped into it.
        let writer = cache.writer(cache::Kind::Object, &key);
        let scratch = writer.as_ref().ok().map(cache::Writer::scratch);
        let mut compiling = Self::compile(text, source_name, scratch)?;
        compiling.compiled.cache = match (writer, compiling.object) {
            (Err(reason), _) => cache::Use::NotCached(reason),
            (Ok(_), None) => cache::Use::NotCached("the JIT wrote no object file".into()),
            (Ok(writer), Some(object)) => writer.store(&cache::Entry {
                meta: object_meta(&compiling.compiled, &compiling.sites),
                payload: object,
            }),
        };
        Ok(compiling.compiled)
    }

    /// A module's code from a cache entry: its object linked, its sites
    /// numbered as in the process that compiled it. `None` when that
    /// cannot be (its numbers name other sites here, the object does not
    /// link): the module is compiled instead.
    fn load(entry: cache::Entry) -> Option<Self> {
        let mut meta = entry.meta.iter();
        let names: Vec<String> = meta
            .next()?
            .strip_prefix("kernels")?
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let first: i64 = meta.next()?.strip_prefix("sites ")?.parse().ok()?;
        let sites = meta
            .map(|line| {
                let (op, location) = line.split_once('\t')?;
                Some(crate::runtime::sites::Site {
                    op: op.to_string(),
                    location: location.to_string(),
                })
            })
            .collect::<Option<Vec<_>>>()?;
        if names.is_empty() {
            // A module without kernels: its entry holds no object.
            return crate::runtime::sites::renumber(first, &sites).then(|| Compiled {
                _code: Code::Nothing,
                kernels: HashMap::new(),
                cache: cache::Use::Read,
            });
        }
        let symbols: Vec<(&str, *mut ())> = ffi::DEVICE_FUNCTIONS.to_vec();
        let jit = pld_ir::orc::ObjectJit::load(&entry.payload, &symbols).ok()?;
        let kernels = entries(&names, |symbol| jit.lookup(symbol)).ok()?;
        if !crate::runtime::sites::renumber(first, &sites) {
            return None;
        }
        Some(Compiled {
            _code: Code::Object { _jit: jit },
            kernels,
            cache: cache::Use::Read,
        })
    }

    /// What the disk cache did for the code.
    pub fn cache_use(&self) -> cache::Use {
        self.cache.clone()
    }

    /// The kernel named `name` (without `@`).
    pub fn kernel(&self, name: &str) -> Option<Kernel<'_>> {
        self.kernels.get(name).map(|entry| Kernel {
            entry: *entry,
            _code: std::marker::PhantomData,
        })
    }
}

/// The optimisation level of the JIT.
const OPT_LEVEL: usize = 2;

/// The kernels' packed entry points (`_mlir_<name>`), found by `lookup`.
fn entries(
    names: &[String],
    lookup: impl Fn(&str) -> Result<*mut (), String>,
) -> Result<HashMap<String, unsafe extern "C" fn(*mut *mut ())>, String> {
    let mut kernels = HashMap::new();
    for name in names {
        let entry = lookup(&format!("_mlir_{name}"))
            .map_err(|e| format!("the JIT has no entry point for @{name}{e}"))?;
        // SAFETY: `_mlir_<name>` is the packed wrapper MLIR generates,
        // `void(void **)`.
        let entry =
            unsafe { std::mem::transmute::<*mut (), unsafe extern "C" fn(*mut *mut ())>(entry) };
        kernels.insert(name.clone(), entry);
    }
    Ok(kernels)
}

/// Names separated by spaces, in order.
fn join<'a>(names: impl Iterator<Item = &'a String>) -> String {
    let mut names: Vec<&str> = names.map(String::as_str).collect();
    names.sort_unstable();
    names.join(" ")
}

/// The object file `engine` compiled (it was made with object dumping on),
/// written to `file` (the cache writer's own) and read back.
fn dump_object(engine: &Engine, file: &std::path::Path) -> Option<Vec<u8>> {
    engine.dump_to_object_file(file.to_str()?);
    std::fs::read(file).ok().filter(|o| !o.is_empty())
}

/// The metadata of a module's cache entry: its kernels, the number of its
/// first site and every site's op and location (for reports).
fn object_meta(compiled: &Compiled, sites: &std::ops::Range<i64>) -> Vec<String> {
    let mut meta = vec![
        format!("kernels {}", join(compiled.kernels.keys())),
        format!("sites {}", sites.start),
    ];
    let listed = crate::runtime::sites::list(sites.clone());
    meta.extend(listed.iter().map(|s| format!("{}\t{}", s.op, s.location)));
    meta
}

/// Runs a pipeline of the simulator's registry on `module`. `Err(Some)`
/// for a malformed pipeline, `Err(None)` when a pass failed (the reasons
/// went to the context's diagnostics).
fn run_pipeline<'c>(
    context: &'c Context,
    module: &mut Module<'c>,
    pipeline: &str,
) -> Result<(), Option<String>> {
    let registry = super::registry::registry();
    let steps = pld_ir::pipeline::parse(pipeline, &registry).map_err(|e| Some(e.to_string()))?;
    let plan =
        pld_ir::pipeline::plan(context, &steps, &registry).map_err(|e| Some(e.to_string()))?;
    for step in &plan {
        step.run(module).map_err(|_| None)?;
    }
    Ok(())
}

/// The functions with bodies after the sim lowering: the kernels.
fn kernel_names(module: &Module) -> Vec<String> {
    let mut names = Vec::new();
    let mut op = module.body().first_operation();
    while let Some(current) = op {
        op = current.next_in_block();
        let has_body = current
            .region(0)
            .ok()
            .and_then(|r| r.first_block())
            .is_some();
        if has_body {
            names.extend(pld_ir::symbol_name(current));
        }
    }
    names
}
