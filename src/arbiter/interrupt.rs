//! Stopping a run by hand. `veil match`, `veil levels` and `veil datagen` ask for SIGTERM
//! and SIGINT (unless SIGINT is ignored, as it is for a shell's background jobs); the first
//! such signal asks the run to stop. A match starts no new game, abandons the games in
//! progress at their next move without counting them, and reports the games that finished;
//! `veil levels` reports what finished of its kind of run; `veil datagen` starts no new game
//! and writes the games in progress when they end. A second signal ends the process at once.

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// Whether a stop has been asked for.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// The signal handler: only an atomic swap and `_exit`, both safe in a handler.
extern "C" fn on_signal(_signal: libc::c_int) {
    if REQUESTED.swap(true, Ordering::Relaxed) {
        // SAFETY: `_exit` is async-signal-safe and takes no pointer.
        unsafe { libc::_exit(130) };
    }
}

/// Whether [`install`] has run: then engines are started in process groups of their own
/// ([`crate::arbiter::engine::Engine::start`]), so that a terminal's Ctrl-C reaches this
/// process alone, which stops them itself.
pub fn installed() -> bool {
    INSTALLED.load(Ordering::Relaxed)
}

/// Installs the handlers (once per process; for `veil match`, `veil levels` and `veil
/// datagen` only, so that the other commands stop as they always have).
pub fn install() {
    INSTALLED.store(true, Ordering::Relaxed);
    let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
    // SAFETY: `sigaction` is given a zeroed, then filled, struct that lives for the call,
    // and a handler that is async-signal-safe.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = handler;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGTERM, &action, std::ptr::null_mut());
        let mut previous: libc::sigaction = std::mem::zeroed();
        libc::sigaction(libc::SIGINT, std::ptr::null(), &mut previous);
        if previous.sa_sigaction != libc::SIG_IGN {
            libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut());
        }
    }
}
