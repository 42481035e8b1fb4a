package adjudicator

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"skagerrak/engine"
)

// TestCommandAnswersKeepTheFogOfWar plays the same game on two hosts that
// differ only in what allied cannot see: german's orders for turn 1 (and
// so the rolls and german's position), and whether german has sent its
// orders for turn 2 (allied has not, so the phase stays open). Allied's answers to status and history must be the
// same bytes on both.
func TestCommandAnswersKeepTheFogOfWar(t *testing.T) {
	answers := func(germanT01 string, germanT02 bool) []Mail {
		dir := t.TempDir()
		clk := &testClock{t: time.Date(1940, 4, 8, 6, 0, 0, 0, time.UTC)}
		h, err := OpenHost(dir, Options{Clock: clk, Entropy: bytes.NewReader(bytes.Repeat([]byte{7}, 64))})
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		if _, err := h.Create(raceSpec("g1")); err != nil {
			t.Fatal(err)
		}
		clk.Add(time.Hour)
		submit(t, h, "g1", "allied", orders("g1", "T01", "allied", "advance 2"))
		submit(t, h, "g1", "german", orders("g1", "T01", "german", germanT01))
		clk.Add(time.Hour)
		if germanT02 {
			submit(t, h, "g1", "german", orders("g1", "T02", "german", "advance 3"))
		}
		clk.Add(time.Hour)
		if r := submit(t, h, "g1", "allied", "status\nhistory\n"); r.Status != StatusAnswered {
			t.Fatalf("the commands were not answered: %+v", r)
		}
		var out outbox
		if _, err := h.Flush(context.Background(), &out); err != nil {
			t.Fatal(err)
		}
		ms := out.to("a@example.org")
		if len(ms) < 2 {
			t.Fatalf("allied got %d mails", len(ms))
		}
		return ms[len(ms)-2:]
	}
	a := answers("advance 3", true)
	b := answers("advance 1", false)
	for i, what := range []string{"status", "history"} {
		if a[i].Kind != MailAnswer || !strings.Contains(a[i].Text, `your command "`+what+`"`) {
			t.Fatalf("mail %d is not the answer to %s:\n%s", i, what, a[i].Text)
		}
		if a[i].Text != b[i].Text || a[i].Subject != b[i].Subject {
			t.Errorf("allied's %s differs with what it cannot see:\n%s\n---\n%s", what, a[i].Text, b[i].Text)
		}
	}
	if strings.Contains(a[0].Text, "german") && !strings.Contains(a[0].Text, "Orders owed by: allied, german") {
		t.Errorf("status names german other than as owing orders:\n%s", a[0].Text)
	}
}

// TestPlayerCommandsReplay checks that a game with every command in its
// log replays to the same answers (verify renders each and compares its
// digest), and that a resend's record names the report it resent.
func TestPlayerCommandsReplay(t *testing.T) {
	h, clk, dir := newHost(t)
	if _, err := h.Create(raceSpec("g1")); err != nil {
		t.Fatal(err)
	}
	clk.Add(time.Hour)
	submit(t, h, "g1", "allied", orders("g1", "T01", "allied", "advance 2"))
	submit(t, h, "g1", "german", orders("g1", "T01", "german", "advance 2"))
	clk.Add(time.Hour)
	submit(t, h, "g1", "allied", "help\nstatus\nhistory\nresend start\naddress new@example.org\n")
	var out outbox
	if _, err := h.Flush(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	if got := out.to("new@example.org"); len(got) != 1 || !strings.Contains(got[0].Subject, "your address is now new@example.org") {
		t.Errorf("the new address got %v", subjects(got))
	}
	old := out.to("a@example.org")
	var first, again *Mail
	for i := range old {
		switch old[i].Kind {
		case MailReport:
			if first == nil {
				first = &old[i]
			}
		case MailResend:
			again = &old[i]
		}
	}
	if first == nil || again == nil || first.Text != again.Text || again.Boundary != first.ID || again.ID == first.ID {
		t.Fatalf("the resent report is not the first one as sent")
	}
	g, err := Replay(h.games["g1"].log, true)
	if err != nil {
		t.Fatalf("a strict replay fails: %v", err)
	}
	if g.Players["allied"].Address != "new@example.org" || g.Unrendered != 0 {
		t.Errorf("the replayed address is %s, %d mails unrendered", g.Players["allied"].Address, g.Unrendered)
	}
	if _, err := VerifyPath(dir+"/g1", nil); err != nil {
		t.Errorf("verify: %v", err)
	}
}

// TestReadPlayerFile reads commands, quoted forms and both together.
func TestReadPlayerFile(t *testing.T) {
	for _, c := range []struct {
		name, text            string
		commands              int
		header, quoted        bool
		skipped, other        int
		game, phase, wantBody string
	}{
		{name: "plain", text: "Game: g\nPhase: T01\nSide: allied\nadvance 1\n", header: true, game: "g", phase: "T01", wantBody: "advance 1"},
		{name: "commands alone", text: "help\nstatus\n", commands: 2},
		{name: "command and game", text: "status\nGame: g2\n", commands: 1},
		{name: "command and signature", text: "history\n-- \nJo\n", commands: 1, other: 2},
		{name: "commands above orders", text: "status\nGame: g\nPhase: T01\nSide: allied\nadvance 1\n", commands: 1, header: true, game: "g", phase: "T01", wantBody: "advance 1"},
		{name: "quoted", text: "my orders\n\n> Game: g\n> Phase: T01\n> Side: allied\n> advance 2\n", header: true, quoted: true, skipped: 1, game: "g", phase: "T01", wantBody: "advance 2"},
		{name: "bare quote", text: ">Game: g\n>Phase: T01\n>Side: allied\nadvance 3\n", header: true, quoted: true, game: "g", phase: "T01", wantBody: "advance 3"},
		{name: "nested quote", text: "> > Game: g\n> > Phase: T01\n>> Side: allied\n> > advance 2\n", header: true, quoted: true, game: "g", phase: "T01", wantBody: "advance 2"},
		{name: "an order word is no command", text: "advance 1\n", other: 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := readPlayerFile(c.text)
			if len(p.Commands) != c.commands || p.Header != c.header || p.Quoted != c.quoted || p.Skipped != c.skipped || (!c.header && p.Other != c.other) {
				t.Fatalf("read %d commands, header %v, quoted %v, skipped %d, other %d", len(p.Commands), p.Header, p.Quoted, p.Skipped, p.Other)
			}
			if c.game != "" {
				if p.Err != nil || p.Game != c.game || p.Phase != c.phase || p.Side != engine.Side("allied") {
					t.Fatalf("header %+v, %v", p.OrderFile, p.Err)
				}
				if got := strings.TrimSpace(p.Body); got != c.wantBody {
					t.Errorf("body %q, want %q", got, c.wantBody)
				}
			}
		})
	}
}

// TestReportSubjectsSayWhetherToAct plays Norge 1940 (its sides take turns
// to order) for some phases and reads every report: one to a side that
// owes orders says "your orders for PHASE are due DATE", ends with the
// form and carries the map; one to a side that owes nothing says "for
// information", has no form, and carries the map exactly when its text
// says so.
func TestReportSubjectsSayWhetherToAct(t *testing.T) {
	dir := t.TempDir()
	clk := &testClock{t: time.Date(2026, 4, 8, 6, 0, 0, 0, time.UTC)}
	h, err := OpenHost(dir, Options{Clock: clk, Entropy: bytes.NewReader(bytes.Repeat([]byte{3}, 32))})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	rs, _ := engine.Lookup("norge")
	spec := Spec{Game: "g", Ruleset: "norge", Timing: Timing{Deadline: Duration(48 * time.Hour)}}
	for i, s := range rs.Sides() {
		spec.Players = append(spec.Players, Player{Side: s, Address: string(s) + "@example.org", Key: "k", Fingerprint: fmt.Sprint("FP", i)})
	}
	g, err := h.Create(spec)
	if err != nil {
		t.Fatal(err)
	}
	var out outbox
	bot := rs.(engine.Player)
	for n := 0; n < 8 && g.Ended == nil; n++ {
		if _, err := h.Flush(context.Background(), &out); err != nil {
			t.Fatal(err)
		}
		for _, s := range g.Owing() {
			body := bot.Play(rs.View(g.State, s), s, engine.NewSeededDice([]byte{3}, string(s), g.Opened.Phase, [32]byte{}))
			submit(t, h, "g", s, orders("g", g.Opened.Phase, string(s), body))
		}
		clk.Add(time.Hour)
	}
	info, due := 0, 0
	for _, m := range out.mails {
		if m.Kind != MailReport {
			continue
		}
		hasMap := false
		for _, a := range m.Attachments {
			hasMap = hasMap || a.Name == "map.png"
		}
		form := strings.Contains(m.Text, "Your order form")
		switch {
		case strings.Contains(m.Subject, "g: your orders for ") && strings.Contains(m.Subject, " are due "):
			due++
			if !form || !hasMap {
				t.Errorf("%q: form %v, map %v; want both", m.Subject, form, hasMap)
			}
		case strings.Contains(m.Subject, "for information"):
			info++
			says := strings.Contains(m.Text, "Your map is attached")
			if form || hasMap != says || (!hasMap && !strings.Contains(flatText(m.Text), "has not changed since the last one you were sent")) {
				t.Errorf("%q: form %v, map %v, the text says attached %v", m.Subject, form, hasMap, says)
			}
		default:
			t.Errorf("a report's subject says not whether to act: %q", m.Subject)
		}
	}
	if info == 0 || due == 0 {
		t.Errorf("%d reports for information and %d with orders due; want some of each", info, due)
	}
}

func flatText(s string) string { return strings.Join(strings.Fields(s), " ") }
