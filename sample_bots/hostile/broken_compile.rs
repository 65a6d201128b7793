// Fixture: does not compile (an undeclared name). Expected verdict:
// compile, with rustc's message.
fn main() {
    println!("{}", undeclared_move);
}
