package commands

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"skagerrak/adjudicator"
	"skagerrak/config"
	"skagerrak/internal/hosttest"
	"skagerrak/internal/wiring"
	"skagerrak/mail/compose"
)

// check, given the games (the configuration's data directory), concludes
// what the daemon does: orders with two errors are rejected, each error
// listed as the reply lists it, and the reply it prints is the one the
// daemon then sends, word for word. Nothing is recorded: the log is the
// same after. Good orders are accepted, exit 0.
func TestCheckConcludesAsTheDaemon(t *testing.T) {
	e := hosttest.New(t, 1)
	cfg := e.Config(t)
	addr := "german-0@players.test"
	write := func(name, body string) string {
		raw, err := compose.SignPGPMIMEMail(e.Players[addr], addr, hosttest.HostAddr, "orders", "Game: g000\nPhase: T01\nSide: german\n"+body, e.SignAt(addr))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(e.Dir, name)
		os.WriteFile(p, raw, 0o600)
		return p
	}
	bad := write("bad.eml", "advance 9\nretreat 2\n")
	logPath := filepath.Join(e.DataDir(), "g000", "events.jsonl")
	logBefore, _ := os.ReadFile(logPath)
	code, out, errs := run(t, "--config", cfg, "check", bad)
	if code == 0 || !strings.Contains(out, "result:      rejected") || !strings.Contains(out, "game:        g000") ||
		!strings.Contains(out, "side:        german") || !strings.Contains(out, "signature:   accepted") || strings.Count(out, "\nerror:") != 2 {
		t.Fatalf("check of orders with two errors: %d\n%s\n%s", code, out, errs)
	}
	if logAfter, _ := os.ReadFile(logPath); string(logAfter) != string(logBefore) {
		t.Fatalf("check changed the game's log")
	}
	_, reply, ok := strings.Cut(out, "The reply the daemon would send to german <"+addr+">:\n")
	if !ok {
		t.Fatalf("check prints no reply:\n%s", out)
	}
	_, reply, _ = strings.Cut(reply, "\n\n")

	// The daemon, given the same message, sends that reply.
	raw, _ := os.ReadFile(bad)
	e.Deliver(t, raw)
	if code, out, errs := run(t, "--config", cfg, "poll", "--once"); code != 0 {
		t.Fatalf("poll: %s %s", out, errs)
	}
	e.SMTP.Take("allied-0@players.test")
	if sent := e.ReplyText(t, addr); sent != strings.Join(strings.Fields(reply), " ") {
		t.Fatalf("check's reply:\n%s\nthe daemon's:\n%s", strings.Join(strings.Fields(reply), " "), sent)
	}
	if code, out, _ := run(t, "--config", cfg, "check", bad); code != 0 || !strings.Contains(out, "result:      duplicate") {
		t.Fatalf("check of a message already recorded: %d\n%s", code, out)
	}
	good := write("good.eml", "advance 2\n")
	if code, out, errs := run(t, "--config", cfg, "check", good); code != 0 || !strings.Contains(out, "result:      accepted") || !strings.Contains(out, "orders accepted") {
		t.Fatalf("check of good orders: %d\n%s\n%s", code, out, errs)
	}
}

// check against games kept in PostgreSQL concludes as against files, and
// appends nothing to the game's records.
func TestCheckAgainstPostgreSQL(t *testing.T) {
	e := hosttest.New(t, 0)
	cfg := e.Config(t)
	hosttest.MigratedStore(t)
	c, err := config.Load(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	records := func() uint64 {
		st, err := wiring.OpenStore(context.Background(), c, true)
		if err != nil {
			t.Fatal(err)
		}
		h, err := adjudicator.OpenStore(st, adjudicator.Options{Verifier: wiring.Verifier{}})
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		if len(h.Games()) == 0 {
			e.CreateGames(t, h, 1)
		}
		g, err := h.Game("g000")
		if err != nil {
			t.Fatal(err)
		}
		return g.Seq
	}
	before := records()
	addr := "german-0@players.test"
	raw, err := compose.SignPGPMIMEMail(e.Players[addr], addr, hosttest.HostAddr, "orders", "Game: g000\nPhase: T01\nSide: german\nadvance 9\nretreat 2\n", e.SignAt(addr))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(e.Dir, "bad.eml")
	os.WriteFile(p, raw, 0o600)
	code, out, errs := run(t, "--config", cfg, "check", p)
	if code == 0 || !strings.Contains(out, "result:      rejected") || strings.Count(out, "\nerror:") != 2 || !strings.Contains(out, "orders rejected (german)") {
		t.Fatalf("check against PostgreSQL: %d\n%s\n%s", code, out, errs)
	}
	if after := records(); after != before {
		t.Fatalf("check appended records: %d, then %d", before, after)
	}
}
