package adjudicator

import (
	"path/filepath"
	"strings"
	"testing"
)

// quotedReply is a reply as mutt writes it to the first report when it
// quotes the whole mail (include_onlyfirst unset): two lines of the
// player's own, the quoted form (lines 4 to 8, its last a quoted blank),
// the unquoted blank lines mutt puts between two parts, and the quoted
// guide attached to the report (four lines that are no orders).
func quotedReply(orderLine string) string {
	var b strings.Builder
	b.WriteString("Here are my orders.\n\nOn Mon, the host wrote:\n")
	for _, l := range strings.Split(strings.TrimSuffix(orders("g1", "T01", "allied", orderLine), "\n"), "\n") {
		b.WriteString("> " + l + "\n")
	}
	b.WriteString("> \n\n\n> RACE: A player's guide\n> =======================\n> THE GAME\n> Two sides race to the end of the track.\n")
	return b.String()
}

// A quoted form followed by the rest of the mail it answered, quoted
// too, is read to the end of the form's quote when the whole has errors:
// line 8 here (counted by hand: three lines of the player's, then Game:,
// Phase:, Side:, the order and the quoted blank). The reply says so,
// naming the 2 lines above and the 4 after that were not read, and the
// game replays from its log to the same orders.
func TestQuotedFormFollowedByQuotedGuideIsReadToItsEnd(t *testing.T) {
	h, clk, dir := newHost(t)
	h.Create(raceSpec("g1"))
	r := submitAt(t, h, "allied", quotedReply("advance 2"), "sig1:q", clk.Now())
	if r.Status != StatusAccepted {
		t.Fatalf("the quoted form with the guide quoted after it: %+v", r)
	}
	g, _ := h.Game("g1")
	if o := g.Orders["allied"]; o.ReadTo != 8 {
		t.Fatalf("read to line %d, want 8", o.ReadTo)
	}
	text := strings.Join(strings.Fields(lastMail(t, h, "g1").Text), " ")
	for _, want := range []string{"orders accepted", "advance 2", "from its Game: line to line 8, where the quote ends", "The 2 line(s) above its Game: line were not read", "The 4 line(s) after line 8, quoted from the rest of the mail you answered"} {
		if !strings.Contains(text, want) {
			t.Errorf("the reply does not say %q:\n%s", want, text)
		}
	}
	h.Close()
	if _, err := VerifyPath(filepath.Join(dir, "g1"), nil); err != nil {
		t.Fatalf("the game does not replay: %v", err)
	}
	h2, err := OpenHost(dir, Options{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	defer h2.Close()
	g2, _ := h2.Game("g1")
	if o := g2.Orders["allied"]; o.ReadTo != 8 || g2.parsed["allied"] == nil {
		t.Fatalf("reopened: read to line %d, orders %v", o.ReadTo, g2.parsed["allied"])
	}
}

// The form's own errors still refuse it, with the errors of the whole
// text as read (the form's and the guide's lines).
func TestQuotedFormWithErrorsOfItsOwnIsRefused(t *testing.T) {
	h, clk, _ := newHost(t)
	h.Create(raceSpec("g1"))
	r := submitAt(t, h, "allied", quotedReply("advance 9"), "sig1:q", clk.Now())
	if r.Status != StatusRejected || !strings.Contains(r.Reason, "5 error(s)") {
		t.Fatalf("a quoted form with an error of its own: %+v", r)
	}
}

// A log whose accepted orders say they were read to another line than
// the rules read them to does not replay.
func TestReplayRefusesOrdersReadToAnotherLine(t *testing.T) {
	for _, c := range []struct {
		name, text string
		readTo     int
	}{
		{"a cut where none is needed", orders("g1", "T01", "allied", "advance 2"), 2},
		{"no cut where one is", quotedReply("advance 2"), 0},
		{"a cut elsewhere", quotedReply("advance 2"), 7},
	} {
		t.Run(c.name, func(t *testing.T) {
			cg := newCrashingGame(t)
			ev, _ := cg.log.Append(EvOrdersAccepted, cg.clock.Now(), OrdersAccepted{Phase: "T01", Side: "allied", Text: c.text, Source: "unsigned", Key: "k", ReadTo: c.readTo})
			if err := cg.g.Apply(ev); err == nil || !strings.Contains(err.Error(), "the orders were read to line") {
				t.Fatalf("Apply: %v", err)
			}
		})
	}
}

// A player who wrote an order of their own under the quoted form, after
// a blank line, keeps it: the text is read to the last break in the quote
// that leaves no errors (line 10, counted by hand: the quoted blank under
// the player's "advance 3"), not to the first (line 7), so the orders are
// advance 3 (the racetest's last advance counts), not the form's advance 1.
func TestQuotedFormIsReadToItsLastBreakThatReadsClean(t *testing.T) {
	h, clk, _ := newHost(t)
	h.Create(raceSpec("g1"))
	text := "Here are my orders.\n\nOn Mon, the host wrote:\n> Game: g1\n> Phase: T01\n> Side: allied\n> advance 1\n\nadvance 3\n> \n\n\n> RACE: A player's guide\n> THE GAME\n"
	if r := submitAt(t, h, "allied", text, "sig1:q", clk.Now()); r.Status != StatusAccepted {
		t.Fatalf("%+v", r)
	}
	g, _ := h.Game("g1")
	if o := g.Orders["allied"]; o.ReadTo != 10 {
		t.Fatalf("read to line %d, want 10", o.ReadTo)
	}
	if text := lastMail(t, h, "g1").Text; !strings.Contains(text, "advance 3") {
		t.Errorf("the reply does not echo advance 3:\n%s", text)
	}
}
