package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"skagerrak/internal/daemontest"
)

// notifySocket listens where systemd would (NOTIFY_SOCKET) and keeps every
// datagram the daemon sends.
type notifySocket struct {
	c    *net.UnixConn
	mu   sync.Mutex
	msgs []string
	done chan struct{}
}

func listenNotify(t *testing.T) *notifySocket {
	t.Helper()
	path := filepath.Join(t.TempDir(), "notify")
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	n := &notifySocket{c: c, done: make(chan struct{})}
	go func() {
		defer close(n.done)
		buf := make([]byte, 4096)
		for {
			k, err := c.Read(buf)
			if err != nil {
				return
			}
			n.mu.Lock()
			n.msgs = append(n.msgs, string(buf[:k]))
			n.mu.Unlock()
		}
	}()
	t.Cleanup(func() { c.Close(); <-n.done })
	t.Setenv("NOTIFY_SOCKET", path)
	return n
}

func (n *notifySocket) all() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return strings.Join(n.msgs, "\n---\n")
}

// scrape reads one metric's value from the endpoint's text.
func scrape(t *testing.T, text, series string) float64 {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no %s in the metrics:\n%s", series, text)
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	return v
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	r, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	return r.StatusCode, string(b)
}

// The daemon watched: a racetest game played through under `run` (both
// sides "advance 1" each of its five phases: every roll of a d6 is at least
// 1, so nobody reaches 10 and the game ends after phase 5, rule of the
// race), with one refused order file in T01. The metrics endpoint then
// shows 5 phases resolved, 10 order files accepted and 1 refused, the game
// ended, as much mail sent as the log records sent, none failed; /healthz
// answers 200; systemd, listening on NOTIFY_SOCKET, was told READY=1,
// STATUS=, WATCHDOG=1 (WATCHDOG_USEC asks for it) and, at the stop,
// STOPPING=1.
func TestRunWatchedByMetricsHealthAndSystemd(t *testing.T) {
	e := newMailEnv(t, 1)
	cfg := configFor(t, e)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	f, _ := os.OpenFile(cfg, os.O_APPEND|os.O_WRONLY, 0)
	fmt.Fprintf(f, "metrics:\n  addr: %s\n", addr)
	f.Close()
	sd := listenNotify(t)
	t.Setenv("WATCHDOG_USEC", "200000")

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb daemontest.SyncBuffer
	done := make(chan int, 1)
	go func() { done <- (&Main{Stdout: &out, Stderr: &errb}).Run(ctx, []string{"--config", cfg, "run"}) }()
	resolved := func(n int) func() bool {
		return func() bool { g, err := loadGame(e, "g000"); return err == nil && g.Resolved >= n }
	}
	for turn := 1; turn <= 5; turn++ {
		phase := fmt.Sprintf("T%02d", turn)
		if turn == 1 {
			e.order(t, 0, "german", phase, "advance 9")
		}
		e.order(t, 0, "allied", phase, "advance 1")
		e.order(t, 0, "german", phase, "advance 1")
		waitFor(t, &errb, resolved(turn), "phase "+phase+" to resolve")
	}
	g, _ := loadGame(e, "g000")
	waitFor(t, &errb, func() bool { g, _ = loadGame(e, "g000"); return g.Ended != nil && len(g.Outbox) == 0 }, "the game to end and its mail to go")
	b, _ := os.ReadFile(filepath.Join(e.dataDir(), "g000", "events.jsonl"))
	sent := strings.Count(string(b), `"type":"MailSent"`)
	var text string
	waitFor(t, &errb, func() bool {
		_, text = get(t, "http://"+addr+"/metrics")
		// A pass's counts are taken as it ends, the mail as it goes.
		return scrape(t, text, `skagerrak_games{state="ended"}`) == 1 && scrape(t, text, `skagerrak_mail_total{result="sent"}`) >= float64(sent)
	}, "the metrics to count the pass that ended the game")
	for series, want := range map[string]float64{
		"skagerrak_phases_resolved":                  5,
		`skagerrak_orders_total{outcome="accepted"}`: 10,
		`skagerrak_orders_total{outcome="refused"}`:  1,
		`skagerrak_games{state="ended"}`:             1,
		`skagerrak_games{state="running"}`:           0,
		`skagerrak_games{state="set_aside"}`:         0,
		`skagerrak_mail_total{result="sent"}`:        float64(sent),
		`skagerrak_mail_total{result="failed"}`:      0,
		"skagerrak_mail_queued":                      0,
		"skagerrak_mail_undelivered":                 0,
	} {
		if got := scrape(t, text, series); got != want {
			t.Errorf("%s = %v, want %v", series, got, want)
		}
	}
	for _, h := range []string{"skagerrak_pass_duration_seconds_count", "skagerrak_store_append_duration_seconds_count"} {
		if scrape(t, text, h) == 0 {
			t.Errorf("%s is 0", h)
		}
	}
	if code, body := get(t, "http://"+addr+"/healthz"); code != 200 || !strings.HasPrefix(body, "ok:") {
		t.Errorf("/healthz: %d %s", code, body)
	}
	waitFor(t, &errb, func() bool { return strings.Contains(sd.all(), "WATCHDOG=1") }, "a watchdog ping")
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("run exited %d:\n%s", code, errb.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("run did not stop")
	}
	// The datagram is in the socket as run returns; the reader may not
	// have taken it yet.
	waitFor(t, &errb, func() bool { return strings.HasSuffix(sd.all(), "STOPPING=1") }, "STOPPING=1")
	msgs := sd.all()
	if !strings.HasPrefix(msgs, "READY=1\nSTATUS=serving 1 game(s)") || !strings.Contains(msgs, "STATUS=last pass") || !strings.HasSuffix(msgs, "STOPPING=1") {
		t.Fatalf("systemd was told:\n%s", msgs)
	}
	if _, err := http.Get("http://" + addr + "/healthz"); err == nil {
		t.Errorf("the metrics endpoint still answers after the stop")
	}
}
