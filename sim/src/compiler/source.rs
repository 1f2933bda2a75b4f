//! A program to compile, and the file its diagnostics quote.

/// A pld program: its text, the name its locations use (`prog.mlir`), and
/// the text of the file of that name, which diagnostics quote. That file
/// is the program itself, or the user's shard program it was converted
/// from: `convert-shard-to-pld` keeps the shard ops' locations, so the
/// converted program's diagnostics point into the user's file, whose lines
/// are not the converted text's.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    pub text: &'a str,
    pub name: &'a str,
    pub file: &'a str,
}

impl<'a> Source<'a> {
    /// A program that is its own file.
    pub fn new(text: &'a str, name: &'a str) -> Self {
        Source {
            text,
            name,
            file: text,
        }
    }

    /// A program converted from the file `name` whose text is `file`.
    pub fn converted(text: &'a str, name: &'a str, file: &'a str) -> Self {
        Source { text, name, file }
    }
}
