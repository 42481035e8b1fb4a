package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"skagerrak/adjudicator"
	"skagerrak/engine"
	"skagerrak/events"
	"skagerrak/events/pgstore"
	"skagerrak/events/pgstore/pgtest"
	"skagerrak/internal/gamelog"
	"skagerrak/internal/wiring"
	"skagerrak/mail/compose"
	"skagerrak/mail/loopback"
	"skagerrak/mail/smtpout"
)

// movableClock is a clock a test moves forward.
type movableClock struct{ ns atomic.Int64 }

func (c *movableClock) Now() time.Time      { return time.Unix(0, c.ns.Load()).UTC() }
func (c *movableClock) add(d time.Duration) { c.ns.Add(int64(d)) }

func newMovableClock() *movableClock {
	c := &movableClock{}
	c.ns.Store(time.Now().UnixNano())
	return c
}

// burst is a host of kriegsmarine games whose phases all resolve at once,
// leaving two turn reports (with their maps) queued in each game.
type burst struct {
	h     *adjudicator.Host
	clock *movableClock
	games int
}

// newBurst makes n games on st, sends their first reports nowhere, and
// moves the clock past every deadline so that one Tick resolves them all;
// the host flushes senders games at once.
func newBurst(tb testing.TB, st adjudicator.Store, n, senders int) *burst {
	tb.Helper()
	clock := newMovableClock()
	h, err := adjudicator.OpenStore(st, adjudicator.Options{Clock: clock, Senders: senders})
	if err != nil {
		tb.Fatal(err)
	}
	rs, _ := engine.Lookup("kriegsmarine")
	for i := 0; i < n; i++ {
		spec := adjudicator.Spec{Game: fmt.Sprintf("b%04d", i), Ruleset: "kriegsmarine", HostFrom: hostAddr,
			Timing: adjudicator.Timing{Deadline: adjudicator.Duration(48 * time.Hour)}}
		for j, s := range rs.Sides() {
			spec.Players = append(spec.Players, adjudicator.Player{Side: s, Address: fmt.Sprintf("%s-%d@players.test", s, i), Key: "k", Fingerprint: fmt.Sprint("FP", i, j)})
		}
		if _, err := h.Create(spec); err != nil {
			tb.Fatal(err)
		}
	}
	if _, err := h.Flush(context.Background(), discard{}); err != nil {
		tb.Fatal(err)
	}
	clock.add(49 * time.Hour)
	if _, err := h.Tick(); err != nil {
		tb.Fatal(err)
	}
	return &burst{h: h, clock: clock, games: n}
}

// queued counts the mail waiting in every game.
func (b *burst) queued() int { return queuedIn(b.h) }

// burstSMTP is the server a burst goes to: SKAGERRAK_BENCH_SMTP (a real
// MTA on this machine, host:port, no TLS) or go-smtp's loopback server.
func burstSMTP(tb testing.TB) (addr, label string) {
	if a := os.Getenv("SKAGERRAK_BENCH_SMTP"); a != "" {
		return a, "mta"
	}
	srv, err := loopback.StartSMTP(loopback.SMTPOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { srv.Close() })
	return srv.Addr(), "loopback"
}

func burstSender(tb testing.TB, addr string, pooled bool) (*wiring.Sender, func()) {
	tb.Helper()
	key, err := compose.GenerateKey("host", hostAddr, time.Now().Add(-time.Hour))
	if err != nil {
		tb.Fatal(err)
	}
	ss, err := smtpout.New(smtpout.Config{Addr: addr, TLS: smtpout.TLSNone, From: hostAddr})
	if err != nil {
		tb.Fatal(err)
	}
	if !pooled {
		return &wiring.Sender{Via: ss, From: hostAddr, Host: key, Clock: time.Now}, func() {}
	}
	p := ss.Pool(4, 100)
	return &wiring.Sender{Via: p, From: hostAddr, Host: key, Clock: time.Now}, func() { p.Close() }
}

// A small burst, with maps, through the parallel flush and a pool: every
// report reaches the server once (run under -race, this is the check that
// rendering several games' reports at once shares nothing).
func TestBurstOfReportsWithMaps(t *testing.T) {
	st, err := adjudicator.NewFileStore(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	b := newBurst(t, st, 4, 4+runtime.NumCPU())
	defer b.h.Close()
	if n := b.queued(); n != 8 {
		t.Fatalf("%d mails queued after the burst, want 8 (two reports a game)", n)
	}
	srv, err := loopback.StartSMTP(loopback.SMTPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	s, done := burstSender(t, srv.Addr(), true)
	defer done()
	n, err := b.h.Flush(context.Background(), s)
	if err != nil || n != 8 {
		t.Fatalf("flush: %d %v", n, err)
	}
	seen := map[string]bool{}
	smallest, largest := 1<<30, 0
	for _, d := range srv.Deliveries() {
		smallest, largest = min(smallest, len(d.Data)), max(largest, len(d.Data))
		id := messageID(d.Data)
		if seen[id] {
			t.Errorf("%s delivered twice", id)
		}
		seen[id] = true
		if len(d.Data) < 50_000 {
			t.Errorf("%s is %d bytes: a turn report without its map?", id, len(d.Data))
		}
	}
	if len(seen) != 8 {
		t.Fatalf("%d reports delivered, want 8", len(seen))
	}
	t.Logf("reports of %d to %d bytes", smallest, largest)
}

// burstDirs caches, by number of games, a data directory of a burst made
// once per test binary (making one renders every first report's map).
var burstDirs = map[int]string{}

// burstCopy returns a fresh copy of a data directory holding n games whose
// phases have all just resolved, their first reports sent.
func burstCopy(b *testing.B, n int) string {
	b.Helper()
	src, ok := burstDirs[n]
	if !ok {
		dir, err := os.MkdirTemp("", "skagerrak-burst-")
		if err != nil {
			b.Fatal(err)
		}
		st, err := adjudicator.NewFileStore(dir, false)
		if err != nil {
			b.Fatal(err)
		}
		newBurst(b, st, n, 4+runtime.NumCPU()).h.Close()
		burstDirs[n], src = dir, dir
	}
	dst := filepath.Join(b.TempDir(), "games")
	if out, err := exec.Command("cp", "-a", src, dst).CombinedOutput(); err != nil {
		b.Fatalf("copying the burst: %v %s", err, out)
	}
	return dst
}

// BenchmarkDeadlineBurst is the burst figure: 1,000 games whose phases
// resolve at once, all 2,000 turn reports (maps included) sent to an SMTP
// server: as before this change (one message after another, a connection
// each), and over a pool of 4 connections with rendering ahead. Set
// SKAGERRAK_BENCH_SMTP=127.0.0.1:PORT for a real MTA (README, Performance)
// and SKAGERRAK_BENCH_GAMES for another number of games. Run it with
// -benchtime=1x; -short makes 50 games.
func BenchmarkDeadlineBurst(b *testing.B) {
	games := burstGames()
	addr, label := burstSMTP(b)
	for _, mode := range []struct {
		name    string
		senders int
		pooled  bool
	}{{"sequential", 1, false}, {"pool4", burstSenders(), true}} {
		b.Run(label+"/"+mode.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				h, err := adjudicator.OpenHost(burstCopy(b, games), adjudicator.Options{Senders: mode.senders})
				if err != nil {
					b.Fatal(err)
				}
				want := queuedIn(h)
				s, done := burstSender(b, addr, mode.pooled)
				b.StartTimer()
				t0, cpu0 := time.Now(), cpuTime()
				n, err := h.Flush(context.Background(), s)
				d, cpu := time.Since(t0), cpuTime()-cpu0
				b.StopTimer()
				if err != nil || n != want || n != 2*games {
					b.Fatalf("flush: %d of %d (%d games), %v", n, want, games, err)
				}
				b.ReportMetric(d.Seconds(), "s/burst")
				b.ReportMetric(float64(n)/d.Seconds(), "mails/s")
				b.ReportMetric(float64(cpu.Milliseconds())/float64(n), "cpu-ms/mail")
				done()
				h.Close()
			}
		})
	}
}

// BenchmarkDeadlineBurstTwoDaemons is the same burst on one PostgreSQL,
// sent by two daemons (two hosts, each with its own pool of 4) at once.
func BenchmarkDeadlineBurstTwoDaemons(b *testing.B) {
	games := burstGames()
	addr, label := burstSMTP(b)
	b.Run(label, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			url := pgtest.URL(b)
			ctx := context.Background()
			if _, err := pgstore.Migrate(ctx, url, pgstore.Options{}, nil); err != nil {
				b.Fatal(err)
			}
			dirs, err := adjudicator.GameDirs(burstCopy(b, games))
			if err != nil {
				b.Fatal(err)
			}
			s, err := pgstore.Open(ctx, url, pgstore.Options{})
			if err != nil {
				b.Fatal(err)
			}
			for _, d := range dirs {
				if _, _, err := gamelog.Import(ctx, s, d, false); err != nil {
					b.Fatal(err)
				}
			}
			s.Close()
			var hosts []*adjudicator.Host
			for range 2 {
				h, err := adjudicator.OpenStore(pgStoreOf(b, url), adjudicator.Options{Senders: burstSenders()})
				if err != nil {
					b.Fatal(err)
				}
				hosts = append(hosts, h)
			}
			want := queuedIn(hosts[0])
			var wg sync.WaitGroup
			var sent atomic.Int64
			errs := make(chan error, 2)
			b.StartTimer()
			t0, cpu0 := time.Now(), cpuTime()
			for _, h := range hosts {
				wg.Add(1)
				go func() {
					defer wg.Done()
					s, done := burstSender(b, addr, true)
					defer done()
					n, err := h.Flush(context.Background(), s)
					sent.Add(int64(n))
					errs <- err
				}()
			}
			wg.Wait()
			d, cpu := time.Since(t0), cpuTime()-cpu0
			b.StopTimer()
			close(errs)
			for err := range errs {
				if err != nil {
					b.Fatal(err)
				}
			}
			if int(sent.Load()) != want || want != 2*games {
				b.Fatalf("%d sent by the two, want %d", sent.Load(), want)
			}
			b.ReportMetric(d.Seconds(), "s/burst")
			b.ReportMetric(float64(want)/d.Seconds(), "mails/s")
			b.ReportMetric(float64(cpu.Milliseconds())/float64(want), "cpu-ms/mail")
			for _, h := range hosts {
				h.Close()
			}
		}
	})
}

// queuedIn counts the mail waiting in every game of a host.
func queuedIn(h *adjudicator.Host) int {
	n := 0
	for _, id := range h.Games() {
		g, _ := h.Game(id)
		n += len(g.Outbox)
	}
	return n
}

func pgStoreOf(tb testing.TB, url string) adjudicator.Store {
	tb.Helper()
	s, err := pgstore.Open(context.Background(), url, pgstore.Options{MaxConns: 16})
	if err != nil {
		tb.Fatal(err)
	}
	return wiring.PostgresStore{Store: s}
}

// burstSenders is how many games a host of the burst sends at once: as
// the binary does (a game for each connection, two for each core), or
// SKAGERRAK_BENCH_SENDERS.
func burstSenders() int {
	if n, err := strconv.Atoi(os.Getenv("SKAGERRAK_BENCH_SENDERS")); err == nil && n > 0 {
		return n
	}
	return 4 + 2*runtime.NumCPU()
}

// burstGames is 1,000, or SKAGERRAK_BENCH_GAMES, or 50 with -short.
func burstGames() int {
	if n, err := strconv.Atoi(os.Getenv("SKAGERRAK_BENCH_GAMES")); err == nil && n > 0 {
		return n
	}
	if testing.Short() {
		return 50
	}
	return 1000
}

// cpuTime is the CPU time this process has used (user and system): the
// figure that other work on the machine does not change.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkStores puts the file store and PostgreSQL side by side in one
// run: one append (durable when it returns: fsync'd, or committed), and a
// whole kriegsmarine game replayed from its log (read, every record's hash
// checked, every phase resolved again).
func BenchmarkStores(b *testing.B) {
	gdir := playGame(b, "kriegsmarine")
	url := pgtest.URL(b)
	ctx := context.Background()
	if _, err := pgstore.Migrate(ctx, url, pgstore.Options{}, nil); err != nil {
		b.Fatal(err)
	}
	s, err := pgstore.Open(ctx, url, pgstore.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	game, _, err := gamelog.Import(ctx, s, gdir, false)
	if err != nil {
		b.Fatal(err)
	}
	data := adjudicator.MailSent{ID: "<b0001.17.report.german@skagerrak.test>"}
	b.Run("append/file", func(b *testing.B) {
		l, err := events.Create(filepath.Join(b.TempDir(), "events.jsonl"))
		if err != nil {
			b.Fatal(err)
		}
		defer l.Close()
		for i := 0; i < b.N; i++ {
			if _, err := l.Append(adjudicator.EvMailSent, time.Now(), data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("append/postgres", func(b *testing.B) {
		l, err := s.Create(ctx, fmt.Sprintf("append-%d", b.N), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer l.Close()
		for i := 0; i < b.N; i++ {
			if _, err := l.Append(adjudicator.EvMailSent, time.Now(), data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("replay/file", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := adjudicator.Replay(adjudicator.LogReader{Path: filepath.Join(gdir, adjudicator.LogFile)}, false); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("replay/postgres", func(b *testing.B) {
		l, err := s.Shared(ctx, game)
		if err != nil {
			b.Fatal(err)
		}
		defer l.Close()
		for i := 0; i < b.N; i++ {
			if _, err := adjudicator.Replay(l, false); err != nil {
				b.Fatal(err)
			}
		}
	})
}
