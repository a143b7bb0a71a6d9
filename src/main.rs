//! The `heat` command line.

fn main() {
    println!("heat");
}
