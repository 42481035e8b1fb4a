package adjudicator

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"skagerrak/events"
)

// logPage stands in for the replay page (replaypage, which imports this
// package): the game's records, counted, and how often it was made.
type logPage struct{ made int }

func (p *logPage) make(l events.Log) ([]byte, error) {
	p.made++
	var b bytes.Buffer
	for ev, err := range l.Events(1) {
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "%d %s\n", ev.Seq, ev.Type)
	}
	return b.Bytes(), nil
}

// finishedWithReplays plays a racetest game to its end on a host that
// attaches replays up to max bytes, made by mk, and returns its final
// reports as sent.
func finishedWithReplays(t *testing.T, mk ReplayMaker, max int64) []Mail {
	t.Helper()
	clk := &testClock{t: time.Date(1940, 4, 8, 6, 0, 0, 0, time.UTC)}
	h, err := OpenHost(t.TempDir(), Options{Clock: clk, Replay: mk, ReplayMax: max})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	playRaceToEnd(t, h, "g1")
	ob := &outbox{}
	h.Flush(context.Background(), ob)
	var finals []Mail
	for _, m := range ob.mails {
		if strings.Contains(m.Subject, "final report") {
			finals = append(finals, m)
		}
	}
	if len(finals) != 2 {
		t.Fatalf("%d final reports, want one for each side", len(finals))
	}
	return finals
}

func names(m Mail) []string {
	var out []string
	for _, a := range m.Attachments {
		out = append(out, a.Name)
	}
	return out
}

func attachment(m Mail, name string) *Attachment {
	for i, a := range m.Attachments {
		if a.Name == name {
			return &m.Attachments[i]
		}
	}
	return nil
}

// TestFinalReportAttachesTheReplay: each side's final report attaches the
// whole game's replay page, made once for all, and its text says which
// page it is and the command that makes it.
func TestFinalReportAttachesTheReplay(t *testing.T) {
	p := &logPage{}
	finals := finishedWithReplays(t, p.make, 0)
	if p.made != 1 {
		t.Errorf("the replay was made %d times for %d final reports, want once", p.made, len(finals))
	}
	for _, m := range finals {
		a := attachment(m, "g1-replay.html")
		if a == nil || !bytes.Contains(a.Data, []byte(" GameEnded\n")) || a.ContentType != "text/html; charset=utf-8" {
			t.Fatalf("the final report to %s attaches %v, want g1-replay.html, the page of the game to its end", m.To, names(m))
		}
		for _, want := range []string{"The replay of the whole game is attached as g1-replay.html", "the whole game with the fog lifted, the same\nfile for every player", "  skagerrak replay g1 --html g1-replay.html\n"} {
			if !strings.Contains(m.Text, want) {
				t.Errorf("the final report to %s does not say %q", m.To, want)
			}
		}
		if attachment(m, "g1-replay.txt") != nil {
			t.Errorf("the final report to %s attaches both the replay and the note", m.To)
		}
	}
}

// TestFinalReportSaysHowToMakeAReplayItCannotAttach: a replay over the
// size the host mails, or one that could not be made, is not attached;
// a note in its place says why and the one command that makes it. The
// final report is sent all the same.
func TestFinalReportSaysHowToMakeAReplayItCannotAttach(t *testing.T) {
	p := &logPage{}
	broken := func(events.Log) ([]byte, error) { return nil, errors.New("no ruleset draws it") }
	thousand := func(events.Log) ([]byte, error) { return bytes.Repeat([]byte("x"), 1000), nil }
	for _, c := range []struct {
		name string
		mk   ReplayMaker
		max  int64
		why  string
	}{
		{"over the size", thousand, 999, "is 1000 bytes, over the 999 bytes this host sends by mail"},
		{"none by mail", p.make, -1, "is not sent by mail from this host"},
		{"not made", broken, 0, "could not be made here (no ruleset draws it)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, m := range finishedWithReplays(t, c.mk, c.max) {
				if attachment(m, "g1-replay.html") != nil {
					t.Errorf("the final report to %s attaches the replay", m.To)
				}
				note := attachment(m, "g1-replay.txt")
				if note == nil {
					t.Fatalf("the final report to %s attaches %v, no note on the replay", m.To, names(m))
				}
				want := "The replay of game g1 " + c.why + ", so it is not attached.\nMake it from the game's log with:\n  skagerrak replay g1 --html g1-replay.html\n"
				if string(note.Data) != want {
					t.Errorf("the note to %s says\n%s\nwant\n%s", m.To, note.Data, want)
				}
			}
		})
	}
}

// playRaceToEnd creates racetest game id and plays it to its end.
func playRaceToEnd(t *testing.T, h *Host, id string) *Game {
	t.Helper()
	if _, err := h.Create(raceSpec(id)); err != nil {
		t.Fatal(err)
	}
	g, _ := h.Game(id)
	for g.Ended == nil {
		p := g.Opened.Phase
		submit(t, h, id, "allied", orders(id, p, "allied", "advance 3"))
		submit(t, h, id, "german", orders(id, p, "german", "advance 2"))
	}
	return g
}
