package watch

import (
	"context"
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"skagerrak/adjudicator"
)

// metrics are the daemon's Prometheus metrics, in a registry of their own.
type metrics struct {
	reg         *prometheus.Registry
	games       *prometheus.GaugeVec
	resolved    prometheus.Gauge
	orders      *prometheus.CounterVec
	messages    prometheus.Counter
	queued      prometheus.Gauge
	undelivered prometheus.Gauge
	mail        *prometheus.CounterVec
	passes      *prometheus.CounterVec
	passTime    prometheus.Histogram
	lastOK      prometheus.Gauge
	appendTime  prometheus.Histogram
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		games: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "skagerrak_games",
			Help: "Games by state: running, ended, set_aside (this build cannot open them; their mail waits)."}, []string{"state"}),
		resolved: prometheus.NewGauge(prometheus.GaugeOpts{Name: "skagerrak_phases_resolved",
			Help: "Phases resolved, in every game the daemon holds."}),
		orders: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "skagerrak_orders_total",
			Help: "Order files received, by outcome: accepted, refused (answered with the errors)."}, []string{"outcome"}),
		messages: prometheus.NewCounter(prometheus.CounterOpts{Name: "skagerrak_messages_total",
			Help: "Messages taken from the mailbox."}),
		queued: prometheus.NewGauge(prometheus.GaugeOpts{Name: "skagerrak_mail_queued",
			Help: "Mail waiting to be sent."}),
		undelivered: prometheus.NewGauge(prometheus.GaugeOpts{Name: "skagerrak_mail_undelivered",
			Help: "Mail that did not arrive (refused by the mail server, or bounced) and is not yet delivered again."}),
		mail: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "skagerrak_mail_total",
			Help: "Mail by what became of it: sent (the server took it), failed (refused for good), deferred (tried again later), bounced (a delivery report came back)."}, []string{"result"}),
		passes: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "skagerrak_passes_total",
			Help: "Passes over the mailbox, deadlines and outbox, by result: ok, failures (something is tried again next pass)."}, []string{"result"}),
		passTime: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "skagerrak_pass_duration_seconds",
			Help: "How long a pass took.", Buckets: prometheus.ExponentialBuckets(0.01, 4, 9)}),
		lastOK: prometheus.NewGauge(prometheus.GaugeOpts{Name: "skagerrak_last_pass_success_timestamp_seconds",
			Help: "When the last pass without failures ended (Unix time)."}),
		appendTime: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "skagerrak_store_append_duration_seconds",
			Help: "How long the store took to make one record of a game's log durable.", Buckets: prometheus.ExponentialBuckets(0.0005, 4, 9)}),
	}
	m.reg.MustRegister(m.games, m.resolved, m.orders, m.messages, m.queued, m.undelivered, m.mail, m.passes, m.passTime, m.lastOK, m.appendTime,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	// Every series exists from the start, at zero: an alert on a rate
	// needs no first event to see it.
	for _, s := range []string{"running", "ended", "set_aside"} {
		m.games.WithLabelValues(s)
	}
	for _, o := range []string{"accepted", "refused"} {
		m.orders.WithLabelValues(o)
	}
	for _, r := range []string{"sent", "failed", "deferred", "bounced"} {
		m.mail.WithLabelValues(r)
	}
	for _, r := range []string{"ok", "failures"} {
		m.passes.WithLabelValues(r)
	}
	return m
}

// pass counts what a pass did.
func (m *metrics) pass(p adjudicator.Pass, took time.Duration, s adjudicator.Summary, ok bool, end time.Time) {
	m.messages.Add(float64(p.Messages))
	m.orders.WithLabelValues("accepted").Add(float64(p.Accepted))
	m.orders.WithLabelValues("refused").Add(float64(p.Rejected))
	m.mail.WithLabelValues("bounced").Add(float64(p.Bounces))
	m.passTime.Observe(took.Seconds())
	m.summary(s)
	if ok {
		m.passes.WithLabelValues("ok").Inc()
		m.lastOK.Set(float64(end.UnixNano()) / 1e9)
	} else {
		m.passes.WithLabelValues("failures").Inc()
	}
}

// summary sets the gauges of the host's games.
func (m *metrics) summary(s adjudicator.Summary) {
	m.games.WithLabelValues("running").Set(float64(s.Running))
	m.games.WithLabelValues("ended").Set(float64(s.Ended))
	m.games.WithLabelValues("set_aside").Set(float64(s.Aside))
	m.resolved.Set(float64(s.Resolved))
	m.queued.Set(float64(s.Queued))
	m.undelivered.Set(float64(s.Undelivered))
}

// sent counts one mail handed to the mail server, by what it answered.
func (m *metrics) sent(err error) {
	switch {
	case err == nil:
		m.mail.WithLabelValues("sent").Inc()
	case errors.Is(err, adjudicator.ErrPermanent):
		m.mail.WithLabelValues("failed").Inc()
	case errors.Is(err, context.Canceled):
	default:
		m.mail.WithLabelValues("deferred").Inc()
	}
}
