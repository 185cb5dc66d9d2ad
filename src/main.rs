/// Exit 1 with a message, not an abort, when memory runs out (see `memory.rs`).
#[global_allocator]
static ALLOCATOR: polycover::ExitOnOutOfMemory = polycover::ExitOnOutOfMemory;

fn main() {
    std::process::exit(polycover::cli::main());
}
