//! The engine as python-chess drives it: runs `tests/python/client.py` against the built
//! binary (see that script for what it checks).
//!
//! python-chess comes from `scripts/setup.sh`. Without it the test fails when the `CI`
//! environment variable is set (CI installs it) and is skipped, with a notice, otherwise.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// The client takes about 15 s; this is the most it may take.
const DEADLINE: Duration = Duration::from_secs(90);

fn python_chess_available() -> Result<(), String> {
    match Command::new("python3")
        .args(["-c", "import chess.engine"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
    {
        Ok(output) if output.status.success() => Ok(()),
        Ok(output) => Err(format!(
            "python3 cannot import chess.engine: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        )),
        Err(error) => Err(format!("cannot run python3: {error}")),
    }
}

#[test]
fn python_chess_client_plays_analyses_and_ponders() {
    if let Err(reason) = python_chess_available() {
        if std::env::var_os("CI").is_some() {
            panic!("{reason} (CI is set; run scripts/setup.sh to install python-chess)");
        }
        eprintln!("SKIPPED python_chess_client_plays_analyses_and_ponders: {reason} (run scripts/setup.sh)");
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/client.py");
    let mut child = Command::new("python3")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_veil"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run python3");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out = thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let err = thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for python3") {
            break status;
        }
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("client.py still running after {DEADLINE:?}; killed");
        }
        thread::sleep(Duration::from_millis(50));
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    assert!(status.success(), "client.py failed ({status}):\n{stdout}\n{stderr}");
    assert!(stdout.contains("client: OK:"), "no summary line:\n{stdout}\n{stderr}");
    println!("{}", stdout.trim());
}
