package bench

import (
	"bytes"
	"context"
	"crypto"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp/packet"
	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"

	"skagerrak/adjudicator"
	"skagerrak/engine"
	"skagerrak/engine/enginetest"
	"skagerrak/events"
	"skagerrak/internal/hosttest"
	"skagerrak/internal/wiring"
	"skagerrak/mail/compose"
	"skagerrak/mail/verify"
)

var benchSeq int

// benchClock is a host clock the benchmark sets.
type benchClock struct{ t time.Time }

func (c *benchClock) Now() time.Time { return c.t }

// benchRulesets are the rulesets of the binary (not the test one).
func benchRulesets() []string {
	var out []string
	for _, r := range engine.Rulesets() {
		if r.Name() != "racetest" {
			out = append(out, r.Name())
		}
	}
	return out
}

// benchKey makes a player key of the given algorithm.
func benchKey(b *testing.B, algo string, addr string) *openpgp.Entity {
	b.Helper()
	if algo == "ed25519" {
		k, err := compose.GenerateKey("bench", addr, time.Now().Add(-time.Hour))
		if err != nil {
			b.Fatal(err)
		}
		return k
	}
	cfg := &packet.Config{Algorithm: packet.PubKeyAlgoRSA, RSABits: 3072, DefaultHash: crypto.SHA256, Time: func() time.Time { return time.Now().Add(-time.Hour) }}
	k, err := openpgp.NewEntity("bench", "", addr, cfg)
	if err != nil {
		b.Fatal(err)
	}
	return k
}

// BenchmarkIntake measures one order message through the whole intake
// (MIME, signature, order parsing and validation, the append with fsync,
// the reply queued) beside the bare signature verification of the same
// kind of message, for Ed25519 and RSA-3072 keys.
//
// The game directory is on the disk (TMPDIR) for the "intake" figure; the
// "intake-tmpfs" figure puts it in /dev/shm, where fsync costs next to
// nothing, to show the intake with fsync aside.
func BenchmarkIntake(b *testing.B) {
	for _, algo := range []string{"ed25519", "rsa3072"} {
		benchIntake(b, algo, b.TempDir(), "intake")
		if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
			shm, err := os.MkdirTemp("/dev/shm", "skagerrak-bench-")
			if err != nil {
				b.Fatal(err)
			}
			benchIntake(b, algo, shm, "intake-tmpfs")
			os.RemoveAll(shm)
		}
	}
}

func benchIntake(b *testing.B, algo, dir, label string) {
	{
		key := benchKey(b, algo, "a@players.test")
		other := benchKey(b, "ed25519", "g@players.test")
		pub, _ := compose.ArmorPublicKey(key)
		pub2, _ := compose.ArmorPublicKey(other)
		// The host's clock steps a second a message: a key's messages count
		// in the order signed, to the second.
		clk := &benchClock{t: time.Now().UTC().Truncate(time.Second)}
		h, err := adjudicator.OpenHost(dir, adjudicator.Options{Verifier: wiring.Verifier{}, Clock: clk})
		if err != nil {
			b.Fatal(err)
		}
		// A side has at most MaxOrdersPerPhase order files accepted a phase
		// and a key a few replies a phase, so the messages are spread over
		// games, perGame each, made before the timer starts.
		const perGame = 10
		games := 0
		create := func() string {
			games++
			id := fmt.Sprintf("g%d", games)
			spec := adjudicator.Spec{Game: id, Ruleset: "racetest", Timing: adjudicator.Timing{Deadline: adjudicator.Duration(48 * time.Hour)},
				Players: []adjudicator.Player{{Side: "allied", Address: "a@players.test", Key: string(pub), Fingerprint: compose.Fingerprint(key)},
					{Side: "german", Address: "g@players.test", Key: string(pub2), Fingerprint: compose.Fingerprint(other)}}}
			if _, err := h.Create(spec); err != nil {
				b.Fatal(err)
			}
			return id
		}
		msg := func(game string, at time.Time) []byte {
			benchSeq++ // every message unique: a resend would be a duplicate
			raw, err := compose.SignPGPMIMEMail(key, "a@players.test", hosttest.HostAddr, "orders", fmt.Sprintf("Game: %s\nPhase: T01\nSide: allied\nadvance 2 # %d\n", game, benchSeq), at)
			if err != nil {
				b.Fatal(err)
			}
			return raw
		}
		keys, _ := wiring.Verifier{}.Keys([]string{string(pub), string(pub2)})
		one := msg(create(), time.Now().UTC())
		if label == "intake" {
			b.Run(algo+"/verify-only", func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if _, err := verify.Verify(one, keys.(openpgp.EntityList), time.Now()); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		b.Run(algo+"/"+label, func(b *testing.B) {
			b.StopTimer()
			ms := make([][]byte, b.N)
			base := clk.t
			game := ""
			for i := range ms {
				if i%perGame == 0 {
					game = create()
				}
				ms[i] = msg(game, base.Add(time.Duration(i+1)*time.Second))
			}
			b.StartTimer()
			for i := 0; i < b.N; i++ {
				clk.t = base.Add(time.Duration(i+1) * time.Second)
				r, err := h.Receive(ms[i])
				if err != nil || r.Status != adjudicator.StatusAccepted {
					b.Fatalf("message %d: %+v %v", i, r, err)
				}
			}
		})
		if algo == "ed25519" && label == "intake" {
			b.Run(algo+"/gpg-verify-process", func(b *testing.B) { benchGPG(b, key, one) })
		}
		h.Close()
	}
}

// benchGPG runs `gpg --verify` as a process on the same signed text, which
// is what a script around GnuPG pays per message.
func benchGPG(b *testing.B, key *openpgp.Entity, raw []byte) {
	gpg, err := exec.LookPath("gpg")
	if err != nil {
		b.Skip("gpg not installed")
	}
	home, _ := os.MkdirTemp("", "gpgb")
	defer os.RemoveAll(home)
	pub, _ := compose.ArmorPublicKey(key)
	imp := exec.Command(gpg, "--batch", "--homedir", home, "--import")
	imp.Stdin = bytes.NewReader(pub)
	if out, err := imp.CombinedOutput(); err != nil {
		b.Fatalf("gpg import: %v %s", err, out)
	}
	r, err := verify.Verify(raw, openpgp.EntityList{key}, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	data := filepath.Join(home, "data")
	sig := filepath.Join(home, "data.sig")
	os.WriteFile(data, r.Covered, 0o600)
	os.WriteFile(sig, r.Signature, 0o600)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := exec.Command(gpg, "--batch", "--homedir", home, "--verify", sig, data)
		if out, err := c.CombinedOutput(); err != nil {
			b.Fatalf("gpg --verify: %v %s", err, out)
		}
	}
	b.StopTimer()
	exec.Command("gpgconf", "--homedir", home, "--kill", "gpg-agent").Run()
}

// playGame plays a whole game of a ruleset with its scripted players
// through the host (unsigned submissions: the engine and the log are what
// is measured), returning the game directory.
func playGame(b *testing.B, ruleset string) string {
	b.Helper()
	dir := b.TempDir()
	h, err := adjudicator.OpenHost(dir, adjudicator.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	rs, _ := engine.Lookup(ruleset)
	spec := adjudicator.Spec{Game: "g1", Ruleset: ruleset, Timing: adjudicator.Timing{Deadline: adjudicator.Duration(48 * time.Hour)}}
	for i, s := range rs.Sides() {
		spec.Players = append(spec.Players, adjudicator.Player{Side: s, Address: string(s) + "@players.test", Key: "k", Fingerprint: fmt.Sprint("FP", i)})
	}
	g, err := h.Create(spec)
	if err != nil {
		b.Fatal(err)
	}
	bot := rs.(engine.Player)
	for n := 0; g.Ended != nil == false && n < 1000; n++ {
		for _, s := range g.Owing() {
			v := rs.View(g.State, s)
			body := bot.Play(v, s, engine.NewSeededDice([]byte("bench"), string(s), g.Opened.Phase, [32]byte{}))
			text := fmt.Sprintf("Game: g1\nPhase: %s\nSide: %s\n%s", g.Opened.Phase, s, body)
			if _, err := h.SubmitFile("g1", s, []byte(text), "", true, "bench"); err != nil {
				b.Fatal(err)
			}
		}
	}
	if g.Ended == nil {
		b.Fatal("the game did not end")
	}
	return filepath.Join(dir, "g1")
}

// BenchmarkReplay replays a whole game's log (every event applied, every
// phase resolved again from its recorded rolls) beside decoding the same
// log's JSON alone, the floor.
func BenchmarkReplay(b *testing.B) {
	for _, rs := range benchRulesets() {
		gdir := playGame(b, rs)
		logPath := filepath.Join(gdir, adjudicator.LogFile)
		raw, _ := os.ReadFile(logPath)
		n := bytes.Count(raw, []byte("\n"))
		b.Run(rs+"/decode-only", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				for ev, err := range events.NewReader(bytes.NewReader(raw), "").All() {
					if err != nil {
						b.Fatal(err)
					}
					_ = ev
				}
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "events/s")
		})
		b.Run(rs+"/replay", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := adjudicator.LoadGame(gdir); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkResolveHeaviestPhase times the costliest Resolve of a game
// played with the scripted players.
func BenchmarkResolveHeaviestPhase(b *testing.B) {
	for _, name := range benchRulesets() {
		rs, _ := engine.Lookup(name)
		bot := rs.(engine.Player)
		st, err := rs.New(engine.Setup{}, engine.NewSeededDice([]byte("b"), "g", "setup", [32]byte{}))
		if err != nil {
			b.Fatal(err)
		}
		var heaviest engine.State
		var heavyOrders map[engine.Side]engine.Orders
		var worst time.Duration
		for n := 0; !rs.Phase(st).Over && n < 1000; n++ {
			p := rs.Phase(st)
			orders := map[engine.Side]engine.Orders{}
			for _, s := range p.Owes {
				text := bot.Play(rs.View(st, s), s, engine.NewSeededDice([]byte("p"), string(s), p.ID, [32]byte{}))
				o, errs := rs.ParseOrders(st, s, text)
				if len(errs) > 0 {
					b.Fatalf("%s %s: %v", p.ID, s, errs)
				}
				orders[s] = o
			}
			t0 := time.Now()
			next, err := rs.Resolve(st, orders, engine.NewSeededDice([]byte("r"), "g", p.ID, [32]byte{}))
			if err != nil {
				b.Fatal(err)
			}
			if d := time.Since(t0); d > worst {
				worst, heaviest, heavyOrders = d, st, orders
			}
			st = next
		}
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := rs.Resolve(heaviest, heavyOrders, engine.NewSeededDice([]byte("r"), "g", "x", [32]byte{})); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPoll1000Games is the scale figure: a host of 1,000 active games
// and 3,000 order messages in the mailbox, drained by one pass; then an
// idle pass. It reports the pass times, peak RSS and the heap of the host
// between passes. Run it with -benchtime=1x.
func BenchmarkPoll1000Games(b *testing.B) {
	games := 1000
	if testing.Short() {
		games = 50
	}
	e := hosttest.New(b, games)
	for i := 0; i < 3*games; i++ {
		e.Order(b, i%games, []string{"allied", "german"}[(i/games)%2], "T01", fmt.Sprintf("advance %d # %d", 1+i%3, i))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h, box, s := e.Open(b)
		t0 := time.Now()
		p, err := h.PollOnce(context.Background(), wiring.Inbox{Box: box}, s)
		if err != nil || p.Failures > 0 {
			b.Fatalf("%+v %v", p, err)
		}
		full := time.Since(t0)
		// The idle passes: the best of five (the first may meet a GC).
		idle := time.Hour
		for range 5 {
			t0 = time.Now()
			if p, err := h.PollOnce(context.Background(), wiring.Inbox{Box: box}, s); err != nil || p.Messages != 0 {
				b.Fatalf("idle pass: %+v %v", p, err)
			}
			idle = min(idle, time.Since(t0))
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		b.ReportMetric(full.Seconds(), "s/full-pass")
		b.ReportMetric(idle.Seconds()*1000, "ms/idle-pass")
		b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "MiB-heap")
		b.ReportMetric(float64(ru.Maxrss)/1024, "MiB-peak-rss")
		box.Close()
		h.Close()
	}
}

// BenchmarkOpenGame opens a finished game's directory as the daemon (or a
// cron run of poll --once) does: from its snapshot, and without it (every
// phase resolved again).
func BenchmarkOpenGame(b *testing.B) {
	for _, rs := range benchRulesets() {
		gdir := playGame(b, rs)
		h, err := adjudicator.OpenHost(filepath.Dir(gdir), adjudicator.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := h.Flush(context.Background(), discard{}); err != nil {
			b.Fatal(err)
		}
		if n, err := h.Snapshot(); err != nil || n != 1 {
			b.Fatalf("snapshot: %d %v", n, err)
		}
		h.Close()
		open := func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				h, err := adjudicator.OpenHost(filepath.Dir(gdir), adjudicator.Options{})
				if err != nil {
					b.Fatal(err)
				}
				h.Close()
			}
		}
		b.Run(rs+"/snapshot", open)
		os.Remove(filepath.Join(gdir, adjudicator.SnapshotFile))
		b.Run(rs+"/full-replay", open)
	}
}

// discard is a Sender that delivers nowhere.
type discard struct{}

func (discard) Send(context.Context, adjudicator.Mail) error { return nil }

// BenchmarkMap draws one side's map picture (the PNG a report attaches)
// for each ruleset, from the View of a game of the scripted players
// halfway through: drawing and encoding, the bulk of a report's CPU.
func BenchmarkMap(b *testing.B) {
	for _, name := range benchRulesets() {
		rs, _ := engine.Lookup(name)
		p := enginetest.Scripted{Secret: "bench-map"}.Play(b, rs)
		st := p.States[len(p.States)/2]
		side := rs.Sides()[0]
		v := rs.View(st, side)
		pic := rs.(engine.Picturer)
		b.Run(name, func(b *testing.B) {
			size := 0
			for i := 0; i < b.N; i++ {
				png, err := pic.Picture(v, side)
				if err != nil {
					b.Fatal(err)
				}
				size = len(png)
			}
			b.ReportMetric(float64(size)/1000, "KB")
		})
	}
}
