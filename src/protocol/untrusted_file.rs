//! Reading a file whose path came from an untrusted client (`setoption name LevelsFile value
//! <path>`, and any later option that names a file). Only a regular file of bounded size is
//! read; anything else is refused before it is opened where possible, and always before a
//! byte of it is kept. Errors name the path (escaped and shortened) and what is wrong with it
//! in the engine's own words, never the file's content. protocol.md, "File options".
//!
//! Symbolic links are followed, and every check applies to what the link points at: a link
//! to a levels file works, a link to `/dev/zero` is refused as a character device. Refusing
//! links (`O_NOFOLLOW`) would only cover the last component of the path and would give no
//! protection that naming the target directly does not already need, so the checks are on
//! the target instead.
//!
//! The steps: `stat` the path (so a device, FIFO or directory is refused without opening
//! it); open it non-blocking (so a FIFO swapped in meanwhile cannot hang the open) and
//! without becoming its controlling terminal; `fstat` the open descriptor and refuse anything
//! not a regular file or larger than the bound; read at most bound + 1 bytes (a file that
//! grows, or a `/proc` file whose size reads as 0, still cannot make the engine read more).

use std::fmt;
use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read};

/// Longest path, in characters, shown in an error message.
const MAX_SHOWN_PATH_CHARS: usize = 120;

/// What is wrong with a file an option named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileProblem {
    /// Nothing is at the path.
    NotFound,
    /// The engine may not read it.
    PermissionDenied,
    /// It is a directory, a device, a FIFO or a socket (the kind, in words).
    NotRegular(&'static str),
    /// Its size is above the bound.
    TooLarge { size: u64, max: u64 },
    /// Reading found more than the bound, though its size said otherwise.
    GrewBeyond { max: u64 },
    /// Any other failure to open or read it.
    Unreadable(io::ErrorKind),
}

/// A file refused: its path, as shown, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    /// The path with control characters escaped and its length capped ([`shown_path`]).
    pub path: String,
    pub problem: FileProblem,
}

impl fmt::Display for FileProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileProblem::NotFound => write!(f, "does not exist"),
            FileProblem::PermissionDenied => write!(f, "is not readable by the engine (permission denied)"),
            FileProblem::NotRegular(kind) => write!(f, "is {kind}, not a regular file"),
            FileProblem::TooLarge { size, max } => {
                write!(f, "is {size} bytes, more than the limit of {max}")
            }
            FileProblem::GrewBeyond { max } => write!(f, "holds more than the limit of {max} bytes"),
            FileProblem::Unreadable(kind) => write!(f, "cannot be read ({kind})"),
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' {}", self.path, self.problem)
    }
}

impl std::error::Error for FileError {}

/// A path as it may be shown to a client: control characters escaped (`\n`, `\u{1b}`), and
/// cut to `MAX_SHOWN_PATH_CHARS` characters with `...`.
pub fn shown_path(path: &str) -> String {
    let mut shown = String::new();
    for (count, c) in path.chars().enumerate() {
        if count == MAX_SHOWN_PATH_CHARS {
            shown.push_str("...");
            break;
        }
        if c.is_control() {
            shown.extend(c.escape_default());
        } else {
            shown.push(c);
        }
    }
    shown
}

/// The kind of a file that is not a regular one, in words.
fn kind_of(metadata: &Metadata) -> Option<&'static str> {
    let file_type = metadata.file_type();
    if file_type.is_file() {
        return None;
    }
    if file_type.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_char_device() {
            return Some("a character device");
        }
        if file_type.is_block_device() {
            return Some("a block device");
        }
        if file_type.is_fifo() {
            return Some("a FIFO");
        }
        if file_type.is_socket() {
            return Some("a socket");
        }
    }
    Some("of an unknown kind")
}

/// A regular file within the bound, or the reason it is refused.
fn check(metadata: &Metadata, max_bytes: u64) -> Result<(), FileProblem> {
    if let Some(kind) = kind_of(metadata) {
        return Err(FileProblem::NotRegular(kind));
    }
    if metadata.len() > max_bytes {
        return Err(FileProblem::TooLarge {
            size: metadata.len(),
            max: max_bytes,
        });
    }
    Ok(())
}

fn problem_of(error: &io::Error) -> FileProblem {
    match error.kind() {
        io::ErrorKind::NotFound => FileProblem::NotFound,
        io::ErrorKind::PermissionDenied => FileProblem::PermissionDenied,
        io::ErrorKind::IsADirectory => FileProblem::NotRegular("a directory"),
        kind => FileProblem::Unreadable(kind),
    }
}

/// Opens `path` for reading without blocking and without taking it as controlling terminal.
fn open(path: &str) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    options.open(path)
}

/// The content of the regular file at `path`, at most `max_bytes` long. Devices, FIFOs,
/// directories, sockets and files above the bound are refused without reading them; the
/// error never holds any of the file's content.
pub fn read_bounded(path: &str, max_bytes: u64) -> Result<Vec<u8>, FileError> {
    let refuse = |problem| FileError {
        path: shown_path(path),
        problem,
    };
    let metadata = std::fs::metadata(path).map_err(|e| refuse(problem_of(&e)))?;
    check(&metadata, max_bytes).map_err(refuse)?;
    let file = open(path).map_err(|e| refuse(problem_of(&e)))?;
    // The path may have changed between the two looks; what was opened is what counts.
    let metadata = file.metadata().map_err(|e| refuse(problem_of(&e)))?;
    check(&metadata, max_bytes).map_err(refuse)?;
    let mut content = Vec::with_capacity(metadata.len() as usize);
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut content)
        .map_err(|e| refuse(problem_of(&e)))?;
    if content.len() as u64 > max_bytes {
        return Err(refuse(FileProblem::GrewBeyond { max: max_bytes }));
    }
    Ok(content)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A directory of this test's own, removed with its contents when dropped.
    struct Scratch(std::path::PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let dir = std::env::temp_dir().join(format!("veil-untrusted-{}-{name}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn problem(path: &str, max: u64) -> FileProblem {
        read_bounded(path, max).unwrap_err().problem
    }

    #[test]
    fn a_small_regular_file_is_read_whole() {
        let dir = Scratch::new("small");
        let path = dir.0.join("file");
        std::fs::write(&path, b"abc").unwrap();
        assert_eq!(read_bounded(path.to_str().unwrap(), 3).unwrap(), b"abc");
        assert_eq!(
            problem(path.to_str().unwrap(), 2),
            FileProblem::TooLarge { size: 3, max: 2 }
        );
    }

    #[test]
    fn devices_directories_and_missing_files_are_refused() {
        assert_eq!(
            problem("/dev/zero", 1000),
            FileProblem::NotRegular("a character device")
        );
        assert_eq!(problem("/", 1000), FileProblem::NotRegular("a directory"));
        assert_eq!(problem("/no/such/veil/file", 1000), FileProblem::NotFound);
    }

    #[test]
    fn a_proc_file_of_size_zero_is_still_bounded() {
        if std::path::Path::new("/proc/self/maps").exists() {
            assert_eq!(problem("/proc/self/maps", 8), FileProblem::GrewBeyond { max: 8 });
        }
    }

    #[test]
    fn a_sparse_file_is_refused_by_its_size() {
        let dir = Scratch::new("sparse");
        let path = dir.0.join("sparse");
        let file = File::create(&path).unwrap();
        file.set_len(1 << 30).unwrap();
        assert_eq!(
            problem(path.to_str().unwrap(), 1024),
            FileProblem::TooLarge {
                size: 1 << 30,
                max: 1024
            }
        );
    }

    #[test]
    fn shown_paths_are_escaped_and_cut() {
        assert_eq!(shown_path("a\nb\u{1b}c"), "a\\nb\\u{1b}c");
        let long = "x".repeat(500);
        assert_eq!(shown_path(&long).chars().count(), MAX_SHOWN_PATH_CHARS + 3);
        let error = read_bounded("/no/such\n/file", 10).unwrap_err();
        assert_eq!(error.to_string(), "'/no/such\\n/file' does not exist");
    }
}
