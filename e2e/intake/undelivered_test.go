package intake

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"skagerrak/adjudicator"
	"skagerrak/engine"
	"skagerrak/internal/hosttest"
	"skagerrak/internal/wiring"
	"skagerrak/mail/compose"
)

// refereeGame makes game r000 in the env, played by SIDE-r@players.test
// with a referee at referee-r@players.test (newMailEnv's games have none).
func refereeGame(t *testing.T, e *hosttest.Env) {
	t.Helper()
	h, err := adjudicator.OpenHost(e.DataDir(), adjudicator.Options{Verifier: wiring.Verifier{}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	now := time.Now().UTC().Add(-time.Hour)
	spec := adjudicator.Spec{Game: "r000", Ruleset: "racetest", HostFrom: hosttest.HostAddr,
		Timing: adjudicator.Timing{Deadline: adjudicator.Duration(48 * time.Hour)}}
	for _, side := range []string{"allied", "german", "referee"} {
		addr := side + "-r@players.test"
		k, err := compose.GenerateKey(side, addr, now)
		if err != nil {
			t.Fatal(err)
		}
		pub, _ := compose.ArmorPublicKey(k)
		e.Players[addr] = k
		p := adjudicator.Player{Side: engine.Side(side), Address: addr, Key: string(pub), Fingerprint: compose.Fingerprint(k)}
		if side == "referee" {
			spec.Referee = &p
			continue
		}
		spec.Players = append(spec.Players, p)
	}
	if _, err := h.Create(spec); err != nil {
		t.Fatal(err)
	}
}

// A report the mail server refuses at submission (550 5.1.1 at RCPT TO)
// is told to the referee by mail, once, naming game, side and phase, and
// status exits non-zero while it stands. A second refused mail to the same
// side tells the referee nothing new. After the referee's address
// command the side's undelivered mail is sent again to the new address,
// carrying the text of the first, and status exits 0 again.
func TestRefusedAtSubmissionToldToRefereeAndSentAgain(t *testing.T) {
	for _, c := range []struct {
		code     int
		enhanced [3]int
		text     string
	}{
		{550, [3]int{5, 1, 1}, "Invalid recipient"},
		{524, [3]int{5, 2, 4}, "Mailing list expansion problem"},
	} {
		t.Run(strings.Fields(c.text)[0], func(t *testing.T) {
			e := hosttest.New(t, 0)
			refereeGame(t, e)
			cfg := e.Config(t)
			german, ref := "german-r@players.test", "referee-r@players.test"
			e.SMTP.RefuseRcpt(german, c.code, c.enhanced, c.text)
			if code, out, errs := run(t, "--config", cfg, "poll", "--once"); code != 0 {
				t.Fatalf("poll: %d\n%s\n%s", code, out, errs)
			}
			told := e.SMTP.Take(ref)
			if len(told) != 1 {
				t.Fatalf("the referee got %d mails, want 1", len(told))
			}
			text := string(told[0].Data)
			for _, want := range []string{"Subject: [skagerrak] r000 T01: mail to german undelivered", "Phase:    T01",
				"Game:     r000", "Side:     german", "Address:  " + german, "The mail server refused it", fmt.Sprintf("%d %d.%d.%d", c.code, c.enhanced[0], c.enhanced[1], c.enhanced[2])} {
				if !strings.Contains(text, want) {
					t.Errorf("the referee's mail lacks %q:\n%s", want, text)
				}
			}
			code, out, _ := run(t, "--config", cfg, "status", "r000")
			if code == 0 || !strings.Contains(out, "UNDELIVERED: report mail (phase T01) to german <"+german+"> refused by the mail server") {
				t.Fatalf("status after the refusal: %d\n%s", code, out)
			}

			// Orders of allied: german's report of T01 is refused too, and
			// the referee, told already, gets no second mail.
			raw, err := compose.SignPGPMIMEMail(e.Players["allied-r@players.test"], "allied-r@players.test", hosttest.HostAddr, "orders",
				"Game: r000\nPhase: T01\nSide: allied\nadvance 2\n", e.SignAt("allied-r@players.test"))
			if err != nil {
				t.Fatal(err)
			}
			e.Deliver(t, raw)
			if code, out, errs := run(t, "--config", cfg, "poll", "--once"); code != 0 {
				t.Fatalf("poll: %d\n%s\n%s", code, out, errs)
			}
			if n := len(e.SMTP.Take(ref)); n != 0 {
				t.Fatalf("the referee got %d more mails about the same address", n)
			}
			g, err := e.LoadGame("r000")
			if err != nil || len(g.Undelivered) == 0 {
				t.Fatalf("undelivered %+v, %v", g, err)
			}
			refused := len(g.Undelivered)

			moved := "german-new@players.test"
			if code, out, errs := run(t, "--config", cfg, "referee", "r000", "address", "german", moved, "the old box refuses mail"); code != 0 {
				t.Fatalf("referee address: %d\n%s\n%s", code, out, errs)
			}
			if code, out, errs := run(t, "--config", cfg, "poll", "--once"); code != 0 {
				t.Fatalf("poll: %d\n%s\n%s", code, out, errs)
			}
			got := e.SMTP.Take(moved)
			again := 0
			for _, d := range got {
				if bytes.Contains(d.Data, []byte("This mail is sent again")) {
					again++
				}
			}
			// Every refused mail once more, and the notice of the change.
			if again != refused || len(got) != refused+1 {
				t.Fatalf("%d mails to the new address, %d sent again; want %d sent again and the notice", len(got), again, refused)
			}
			if len(e.SMTP.For(german)) != 0 {
				t.Fatalf("mail reached the refusing address")
			}
			code, out, _ = run(t, "--config", cfg, "status", "r000")
			if code != 0 || strings.Contains(out, "UNDELIVERED") {
				t.Fatalf("status after the mail went again: %d\n%s", code, out)
			}
			if rep, err := adjudicator.VerifyPath(e.DataDir()+"/r000", wiring.Verifier{}); err != nil {
				t.Fatalf("verify: %v (%+v)", err, rep)
			}
		})
	}
}
