package watch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"skagerrak/adjudicator"
)

// Host is what Watch reads of the daemon's host.
type Host interface {
	Summary() adjudicator.Summary
	Observe(adjudicator.Observer)
}

// Options configure Start.
type Options struct {
	// Addr is where the metrics and health endpoints listen; "" serves
	// none. A port alone (9464 or :9464) listens on the loopback address.
	Addr string
	// HealthyWithin bounds the time since the last pass without failures
	// for /healthz to answer 200 (and for systemd's watchdog to be fed).
	HealthyWithin time.Duration
	Logger        *slog.Logger
	// Notifier, if not nil, is told READY, STATUS, WATCHDOG and STOPPING.
	Notifier *Notifier
	// Watchdog is how often WATCHDOG=1 is sent; 0 never.
	Watchdog time.Duration
}

// Watch watches one daemon: it observes its host's passes (see
// adjudicator.Observer), serves the endpoints and speaks to systemd.
type Watch struct {
	o       Options
	host    Host
	m       *metrics
	srv     *http.Server
	ln      net.Listener
	started time.Time
	stop    chan struct{}
	done    sync.WaitGroup

	mu       sync.Mutex
	lastOK   time.Time // when the last pass without failures ended
	lastEnd  time.Time // when the last pass ended, however it went
	lastFail string    // why the last pass that failed did
}

// Start watches the host: it is observed from now on, the endpoints are
// served if Addr is set, and the watchdog is fed if asked for.
func Start(h Host, o Options) (*Watch, error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	w := &Watch{o: o, host: h, m: newMetrics(), started: time.Now(), stop: make(chan struct{})}
	w.lastEnd = w.started
	w.m.summary(h.Summary())
	if o.Addr != "" {
		ln, err := net.Listen("tcp", listenAddr(o.Addr))
		if err != nil {
			return nil, fmt.Errorf("watch: metrics: %w", err)
		}
		mux := http.NewServeMux()
		mux.Handle("/metrics", promhttp.HandlerFor(w.m.reg, promhttp.HandlerOpts{}))
		mux.HandleFunc("/healthz", w.serveHealth)
		w.ln, w.srv = ln, &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		w.done.Add(1)
		go func() {
			defer w.done.Done()
			if err := w.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				o.Logger.Warn("the metrics endpoint stopped", "err", err)
			}
		}()
	}
	if o.Notifier != nil && o.Watchdog > 0 {
		w.done.Add(1)
		go w.feedWatchdog()
	}
	h.Observe(w)
	return w, nil
}

// listenAddr puts a port alone on the loopback address.
func listenAddr(addr string) string {
	if !strings.Contains(addr, ":") {
		addr = ":" + addr
	}
	if strings.HasPrefix(addr, ":") {
		return "127.0.0.1" + addr
	}
	return addr
}

// Addr is the address the endpoints listen on, "" if none.
func (w *Watch) Addr() string {
	if w.ln == nil {
		return ""
	}
	return w.ln.Addr().String()
}

// Ready tells systemd the daemon is up.
func (w *Watch) Ready(games int) {
	w.notify(fmt.Sprintf("READY=1\nSTATUS=serving %d game(s); first pass", games))
}

// Pass implements adjudicator.Observer.
func (w *Watch) Pass(p adjudicator.Pass, took time.Duration, err error) {
	end := time.Now()
	ok := err == nil && p.Failures == 0
	s := w.host.Summary()
	w.m.pass(p, took, s, ok, end)
	w.mu.Lock()
	w.lastEnd = end
	if ok {
		w.lastOK = end
	} else if err != nil {
		w.lastFail = err.Error()
	} else if p.LastFailure != nil {
		w.lastFail = p.LastFailure.Error()
	}
	w.mu.Unlock()
	status := fmt.Sprintf("STATUS=last pass %s: %d message(s), %d sent; %d game(s) running, %d set aside; %d mail queued, %d undelivered",
		end.UTC().Format("15:04:05"), p.Messages, p.Sent, s.Running, s.Aside, s.Queued, s.Undelivered)
	if !ok {
		status += fmt.Sprintf("; %d failure(s), the last: %s", p.Failures, firstLine(w.lastFail))
	}
	w.notify(status)
}

// Append implements adjudicator.Observer.
func (w *Watch) Append(took time.Duration, err error) {
	if err == nil {
		w.m.appendTime.Observe(took.Seconds())
	}
}

// Sender counts what becomes of each mail s sends.
func (w *Watch) Sender(s adjudicator.Sender) adjudicator.Sender { return countingSender{s, w.m} }

type countingSender struct {
	s adjudicator.Sender
	m *metrics
}

func (c countingSender) Send(ctx context.Context, m adjudicator.Mail) error {
	err := c.s.Send(ctx, m)
	c.m.sent(err)
	return err
}

// health says whether the daemon is healthy, and why.
func (w *Watch) health(now time.Time) (bool, string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	bound := w.o.HealthyWithin
	if w.lastOK.IsZero() {
		why := fmt.Sprintf("no pass has succeeded yet (started %s ago)", now.Sub(w.started).Round(time.Second))
		if w.lastFail != "" {
			why += "; the last failure: " + firstLine(w.lastFail)
		}
		return false, why
	}
	ago := now.Sub(w.lastOK)
	if ago > bound {
		why := fmt.Sprintf("the last pass without failures ended %s ago (healthy within %s)", ago.Round(time.Second), bound)
		if w.lastFail != "" {
			why += "; the last failure: " + firstLine(w.lastFail)
		}
		return false, why
	}
	return true, fmt.Sprintf("ok: the last pass without failures ended %s ago", ago.Round(time.Second))
}

func (w *Watch) serveHealth(rw http.ResponseWriter, r *http.Request) {
	ok, why := w.health(time.Now())
	rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if !ok {
		rw.WriteHeader(http.StatusServiceUnavailable)
	}
	fmt.Fprintln(rw, why)
}

// feedWatchdog sends WATCHDOG=1 while passes keep ending: a pass stuck
// for longer than HealthyWithin stops it, and systemd restarts the daemon
// once its WatchdogSec runs out.
func (w *Watch) feedWatchdog() {
	defer w.done.Done()
	t := time.NewTicker(w.o.Watchdog)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case now := <-t.C:
			w.mu.Lock()
			alive := now.Sub(w.lastEnd) <= w.o.HealthyWithin
			w.mu.Unlock()
			if alive {
				w.notify("WATCHDOG=1")
			}
		}
	}
}

func (w *Watch) notify(state string) {
	if err := w.o.Notifier.Notify(state); err != nil {
		w.o.Logger.Warn("telling systemd failed", "state", firstLine(state), "err", err)
	}
}

// Close tells systemd the daemon stops, and stops serving.
func (w *Watch) Close() error {
	w.notify("STOPPING=1")
	close(w.stop)
	var err error
	if w.srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err = w.srv.Shutdown(ctx)
	}
	w.done.Wait()
	return err
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
