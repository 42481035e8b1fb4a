// Package watch lets a host watch the daemon: metrics in Prometheus's text
// format (games by state, phases resolved, orders, mail, pass duration,
// store latency), a health check a monitor calls (/healthz), and systemd's
// notify protocol (READY, STATUS, WATCHDOG, STOPPING) when run under
// systemd. All of it is off unless asked for: the metrics endpoint by the
// configuration, notify by systemd's NOTIFY_SOCKET.
package watch
