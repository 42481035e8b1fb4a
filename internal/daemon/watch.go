package daemon

import (
	"log/slog"
	"time"

	"skagerrak/adjudicator"
	"skagerrak/adjudicator/watch"
	"skagerrak/config"
)

// healthyWithin is how long after the last pass without failures the
// daemon still counts as healthy: three poll intervals, and at least five
// minutes (a pass over a burst of mail takes a while).
func healthyWithin(c *config.Config) time.Duration { return max(3*c.PollInterval, 5*time.Minute) }

// startWatch starts what watches the daemon: the metrics endpoint if
// metrics.addr is set, systemd's notify and watchdog if it runs the
// daemon with Type=notify.
func startWatch(h *adjudicator.Host, c *config.Config, log *slog.Logger) (*watch.Watch, error) {
	dog, err := watch.WatchdogInterval()
	if err != nil {
		return nil, err
	}
	return watch.Start(h, watch.Options{Addr: c.Metrics.Addr, HealthyWithin: healthyWithin(c), Logger: log,
		Notifier: watch.NotifierFromEnv(), Watchdog: dog})
}
