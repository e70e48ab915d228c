import Foundation

/// A child started through Foundation.Process inherits its parent's blocked signal mask, so a test
/// harness's SIGTERM could be ignored for ever. The simulator unblocks the signals that should end it
/// before any thread starts (threads inherit the mask), so the default action, exiting, applies.
enum SignalMask {
    static func unblockTerminationSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGQUIT] { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}
