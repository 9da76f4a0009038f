fn main() {
    std::process::exit(iolens::cli::main());
}
