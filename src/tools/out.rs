//! Standard output for the commands that write files (`veil match`, `merge`, `levels`,
//! `tune`, `datagen` and `train`): a reader may stop reading (`veil levels ... | head`), and
//! a closed stdout must not end a run before it has written its files, so these macros drop
//! a failed write where `println!` would panic.

/// `println!` that ignores a closed or failing standard output.
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

/// `print!` that ignores a closed or failing standard output.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout().lock(), $($arg)*);
    }};
}
