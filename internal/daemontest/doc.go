// Package daemontest helps the tests that run a host's pass or daemon in a
// process of its own and stop or kill it: a pass that dies by SIGKILL at a
// chosen step (KilledAt), a daemon that stops on SIGTERM (SignalContext),
// what the games' logs recorded once they are exported (ExportLogs,
// TallyLogs), and a log buffer the test can wait on (SyncBuffer, WaitLog).
// The end-to-end tests (e2e and the packages under it) share it.
package daemontest
