//! The bounded line reader of the protocol loop: lines up to the bound come whole, longer
//! ones are reported by length and skipped, whatever the read sizes and line endings.

use std::io::{BufReader, Cursor};
use veil::protocol::input::{InputLine, LineReader};

#[derive(Debug, PartialEq, Eq)]
enum Read {
    Line(Vec<u8>),
    TooLong(usize),
}

/// Everything `input` reads as, with reads of `chunk` bytes at a time.
fn read_all(input: &[u8], max: usize, chunk: usize) -> Vec<Read> {
    let mut reader = LineReader::new(BufReader::with_capacity(chunk, Cursor::new(input.to_vec())), max);
    let mut out = Vec::new();
    loop {
        match reader.next_line() {
            InputLine::Line(bytes) => out.push(Read::Line(bytes.to_vec())),
            InputLine::TooLong { bytes } => out.push(Read::TooLong(bytes)),
            InputLine::End => return out,
        }
    }
}

fn line(text: &str) -> Read {
    Read::Line(text.as_bytes().to_vec())
}

#[test]
fn lines_up_to_the_bound_and_beyond() {
    let input = b"uci\n\nstop\r\n12345\n123456\nabcdefghijklmnop\nlast";
    let expected = vec![
        line("uci"),
        line(""),
        line("stop\r"),
        line("12345"),
        Read::TooLong(6),
        Read::TooLong(16),
        line("last"),
    ];
    for chunk in [1, 2, 3, 5, 7, 64] {
        assert_eq!(read_all(input, 5, chunk), expected, "reads of {chunk} bytes");
    }
}

#[test]
fn an_overlong_last_line_without_newline() {
    for chunk in [1, 4, 1024] {
        assert_eq!(
            read_all(b"ok\nxxxxxxxxxx", 4, chunk),
            vec![line("ok"), Read::TooLong(10)]
        );
    }
}

#[test]
fn empty_input_and_invalid_utf8() {
    assert_eq!(read_all(b"", 8, 8), vec![]);
    assert_eq!(read_all(b"\n", 8, 8), vec![line("")]);
    assert_eq!(
        read_all(b"\xff\xfe\n\x00\n", 8, 1),
        vec![Read::Line(vec![0xff, 0xfe]), Read::Line(vec![0])]
    );
}

#[test]
fn a_line_of_ten_megabytes_is_counted_not_kept() {
    let mut input = vec![b'y'; 10 << 20];
    input.extend_from_slice(b"\nisready\n");
    assert_eq!(
        read_all(&input, 1024, 8192),
        vec![Read::TooLong(10 << 20), line("isready")]
    );
}
