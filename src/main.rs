fn main() {
    std::process::exit(polycover::cli::main());
}
