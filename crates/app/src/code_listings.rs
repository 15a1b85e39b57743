//! Which code each experiment shows beside its result: the table the build script reads (it is
//! included there too, so it holds plain data only) to check every marker it names and extract it.
//!
//! A Rust part names a region of the crates' own source between `// lesson-code: NAME` and
//! `// lesson-code-end` (in `crates/workloads/src` or `crates/engine/src`); a Go part names a region
//! of `content/code/go/*.go`, marked the same way. The build fails when a named marker is missing.

use experiments::catalog::ExperimentId;

/// What a part of a listing is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The plain loop on one worker.
    Sequential,
    /// Tasks on a pool of threads (a waiting task blocks its thread).
    Pool,
    /// Goroutines: tasks on the task runtime (a waiting task parks).
    Goroutines,
    /// The work every version calls.
    Shared,
    /// Both versions in one function, chosen by an `if` or a `match`.
    Both,
    /// A model's main loop: what it does at each instant, in order.
    ModelLoop,
    /// The steps that loop takes.
    ModelSteps,
}

/// One region of source shown under its role.
#[derive(Clone, Copy, Debug)]
pub struct Part {
    pub role: Role,
    pub marker: &'static str,
}

/// The code of one experiment: the Rust it runs and the Go written for the same idea.
#[derive(Clone, Copy, Debug)]
pub struct Listing {
    pub experiment: ExperimentId,
    pub rust: &'static [Part],
    pub go: &'static [Part],
}

const fn part(role: Role, marker: &'static str) -> Part {
    Part { role, marker }
}

use Role::{Both, Goroutines, ModelLoop, ModelSteps, Pool, Sequential, Shared};

const DOCUMENT_SEARCH_GO: &[Part] = &[
    part(Shared, "docsearch/parse"),
    part(Sequential, "docsearch/sequential"),
    part(Goroutines, "docsearch/goroutines"),
];

/// Every experiment that runs a kernel (and the OS scheduler, a model the page runs), and its listings.
pub const LISTINGS: &[Listing] = &[
    Listing {
        experiment: ExperimentId::OsScheduler,
        rust: &[part(ModelLoop, "os-scheduler/loop"), part(ModelSteps, "os-scheduler/steps")],
        go: &[part(Shared, "os-scheduler/bursts"), part(Goroutines, "os-scheduler/one-core")],
    },
    Listing {
        experiment: ExperimentId::Demo,
        rust: &[part(Shared, "spin/work"), part(Pool, "spin/pool")],
        go: &[part(Shared, "spin/work"), part(Sequential, "spin/sequential"), part(Goroutines, "spin/goroutines")],
    },
    Listing {
        experiment: ExperimentId::GoScheduler,
        rust: &[part(Goroutines, "scenario/goroutines"), part(Shared, "scenario/task")],
        go: &[part(Goroutines, "scenario/goroutines"), part(Shared, "scenario/task")],
    },
    Listing {
        experiment: ExperimentId::Sum,
        rust: &[part(Sequential, "sum/sequential"), part(Pool, "sum/pool"), part(Goroutines, "sum/goroutines")],
        go: &[part(Sequential, "sum/sequential"), part(Goroutines, "sum/goroutines")],
    },
    Listing {
        experiment: ExperimentId::SharedTotal,
        rust: &[part(Shared, "shared-total/adds"), part(Pool, "shared-total/pool")],
        go: &[part(Goroutines, "shared-total/goroutines")],
    },
    Listing {
        experiment: ExperimentId::BubbleSort,
        rust: &[part(Sequential, "sort/bubble"), part(Pool, "sort/chunked")],
        go: &[part(Sequential, "sort/bubble"), part(Goroutines, "sort/chunked")],
    },
    Listing {
        experiment: ExperimentId::CpuVsIo,
        rust: &[
            part(Shared, "docsearch/read-and-search"),
            part(Sequential, "docsearch/sequential"),
            part(Goroutines, "docsearch/goroutines"),
        ],
        go: DOCUMENT_SEARCH_GO,
    },
    Listing {
        experiment: ExperimentId::DocumentSearch,
        rust: &[
            part(Shared, "docsearch/read-and-search"),
            part(Sequential, "docsearch/sequential"),
            part(Pool, "docsearch/pool"),
            part(Goroutines, "docsearch/goroutines"),
        ],
        go: DOCUMENT_SEARCH_GO,
    },
    Listing {
        experiment: ExperimentId::TaskGranularity,
        rust: &[
            part(Shared, "granularity/work"),
            part(Sequential, "granularity/sequential"),
            part(Pool, "granularity/pool"),
            part(Goroutines, "granularity/goroutines"),
        ],
        go: &[part(Sequential, "granularity/sequential"), part(Goroutines, "granularity/goroutines")],
    },
    Listing {
        experiment: ExperimentId::TaskSwitch,
        rust: &[part(Pool, "ping-pong/threads"), part(Goroutines, "ping-pong/goroutines")],
        go: &[part(Goroutines, "ping-pong/goroutines")],
    },
    Listing {
        experiment: ExperimentId::TaskMemory,
        rust: &[part(Goroutines, "task-memory/goroutines")],
        go: &[part(Goroutines, "task-memory/goroutines")],
    },
    Listing {
        experiment: ExperimentId::Hashing,
        rust: &[part(Both, "hashing/advance")],
        go: &[part(Sequential, "hashing/sequential"), part(Goroutines, "hashing/goroutines")],
    },
    Listing {
        experiment: ExperimentId::Qps,
        rust: &[part(Both, "qps/send")],
        go: &[part(Pool, "qps/pool"), part(Goroutines, "qps/goroutines")],
    },
];

impl Listing {
    /// Whether it shows a model the page plays out rather than a kernel the engine times.
    pub fn is_model(&self) -> bool {
        self.rust.iter().any(|part| matches!(part.role, ModelLoop | ModelSteps))
    }
}

/// The listing of `experiment`, if it has one.
pub fn listing(experiment: ExperimentId) -> Option<&'static Listing> {
    LISTINGS.iter().find(|l| l.experiment == experiment)
}
