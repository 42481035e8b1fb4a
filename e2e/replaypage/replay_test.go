package replaypage

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"skagerrak/adjudicator"
	"skagerrak/adjudicator/replaypage"
	"skagerrak/engine"
)

// finishedDemo plays one demo game of a ruleset to the end and returns
// its directory (games/demo-1, keys, mail).
func finishedDemo(t *testing.T, ruleset string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "demo")
	code, out, errs := run(t, "demo", "--ruleset", ruleset, "--dir", dir)
	if code != 0 {
		t.Fatalf("demo of %s exit %d\n%s\n%s", ruleset, code, out, errs)
	}
	return dir
}

// TestReplay makes the replay of a finished demo game of each ruleset and
// checks it: its data, a side's history, and the page in a browser.
func TestReplay(t *testing.T) {
	t.Parallel()
	for _, rs := range replayRulesets() {
		t.Run(rs, func(t *testing.T) {
			dir := finishedDemo(t, rs)
			p, err := replaypage.Build(adjudicator.LogReader{Path: filepath.Join(dir, "games", "demo-1", adjudicator.LogFile)})
			if err != nil {
				t.Fatal(err)
			}
			t.Run("EveryPhase", func(t *testing.T) { replayHoldsEveryPhase(t, dir, p) })
			t.Run("SideHoldsOnlyItsMails", func(t *testing.T) { replaySideHoldsOnlyItsMails(t, dir) })
			t.Run("FinalReportAttachesIt", func(t *testing.T) { replayAttachedToFinalReports(t, dir, p) })
			if rs == "kriegsmarine" { // the same for every ruleset
				t.Run("RefusesAGameGoingOn", func(t *testing.T) { replayRefusesAGameGoingOn(t, dir) })
			}
			t.Run("Browser", func(t *testing.T) { replayInBrowser(t, dir, rs, p) })
		})
	}
}

// replayRulesets are the rulesets whose finished demo the replay tests
// open: by default the quickest (every page is drawn map by map, minutes
// of a ruleset under -race), every one with SKAGERRAK_REPLAY_ALL=1.
func replayRulesets() []string {
	if os.Getenv("SKAGERRAK_REPLAY_ALL") != "" {
		var all []string
		for _, r := range engine.Rulesets() {
			all = append(all, r.Name())
		}
		return all
	}
	return []string{"kriegsmarine"}
}

// replayHoldsEveryPhase checks the whole game's page data against
// the log replayed: every resolved phase in order, with every side's
// orders as played, the rolls with their rules, each side's report of it,
// and the final result.
func replayHoldsEveryPhase(t *testing.T, dir string, p *replaypage.Page) {
	gdir := filepath.Join(dir, "games", "demo-1")
	lr := adjudicator.LogReader{Path: filepath.Join(gdir, adjudicator.LogFile)}
	g, err := adjudicator.Replay(lr, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Phases) != len(g.History)+1 || p.Phases[0].ID != replaypage.StartPhase {
		t.Fatalf("%d phases, want the start and the %d resolved", len(p.Phases), len(g.History))
	}
	for i, h := range g.History {
		ph := p.Phases[i+1]
		if ph.ID != h.Phase || ph.Seq != h.Seq || len(ph.Rolls) != len(h.Rolls) {
			t.Fatalf("phase %d is %s (record %d, %d rolls), the log resolved %s (record %d, %d rolls)", i+1, ph.ID, ph.Seq, len(ph.Rolls), h.Phase, h.Seq, len(h.Rolls))
		}
		for _, r := range ph.Rolls {
			if r.Why == "" {
				t.Errorf("phase %s: a d%d rolled without the rule it was for", ph.ID, r.Sides)
			}
		}
		if len(ph.Orders) != len(g.Moves[i].Orders) {
			t.Errorf("phase %s: orders of %d sides, the log has %d", ph.ID, len(ph.Orders), len(g.Moves[i].Orders))
		}
		if len(ph.Views) != len(p.Sides) {
			t.Errorf("phase %s: %d sides' reports, want one of each of %v", ph.ID, len(ph.Views), p.Sides)
		}
		for _, v := range ph.Views {
			if v.Map < 0 || v.Map >= len(p.Maps) {
				t.Errorf("phase %s: %s's map is missing", ph.ID, v.Side)
			}
		}
		if _, ok := g.Rules.(engine.WholePicturer); ok && (ph.Whole < 0 || ph.Whole >= len(p.Maps)) {
			t.Errorf("phase %s: the whole map, fog lifted, is missing", ph.ID)
		}
	}
	if p.Result == nil || p.Result.Summary != g.Ended.Result.Summary || p.Revealed == "" {
		t.Errorf("the end: result %v, revealed %d bytes; the log ended with %v", p.Result, len(p.Revealed), g.Ended.Result)
	}
	raw, err := os.ReadFile(filepath.Join(gdir, adjudicator.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	// The file store frames the records of a batch (events: Batches); the
	// page carries the records, as every store gives them, to the one
	// that ended the game.
	raw = unframed(raw)
	end := bytes.Index(raw, []byte(`"type":"GameEnded"`))
	if end < 0 || !bytes.Equal(p.Log, raw[:end+bytes.IndexByte(raw[end:], '\n')+1]) {
		t.Errorf("the page's log (%d bytes) is not the log as stored (%d bytes) to the record that ended the game", len(p.Log), len(raw))
	}
}

// replaySideHoldsOnlyItsMails checks that a side's history holds
// nothing that side's mails did not: every report text, map and accepted
// orders in it is one of the side's mails, as the demo player kept them;
// and it holds no log.
func replaySideHoldsOnlyItsMails(t *testing.T, dir string) {
	lr := adjudicator.LogReader{Path: filepath.Join(dir, "games", "demo-1", adjudicator.LogFile)}
	g, err := adjudicator.Replay(lr, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, side := range g.Rules.Sides() {
		texts, maps := keptMail(t, filepath.Join(dir, "mail", string(side)))
		p, err := replaypage.BuildSide(lr, side)
		if err != nil {
			t.Fatal(err)
		}
		if p.Log != nil || p.Side != side {
			t.Fatalf("%s's page: side %q, %d bytes of log; want its side and no log", side, p.Side, len(p.Log))
		}
		if len(p.Phases) < 2 {
			t.Fatalf("%s's page has %d phases", side, len(p.Phases))
		}
		orders := 0
		for _, ph := range p.Phases {
			orders += len(ph.Orders)
			for _, v := range ph.Views {
				if v.Side != side || !texts[v.Report] {
					t.Errorf("%s's page, phase %s: a report of %s that is none of %s's mails:\n%.300s", side, ph.ID, v.Side, side, v.Report)
				}
			}
			for _, o := range ph.Orders {
				if o.Side != side || !texts[o.Text] {
					t.Errorf("%s's page, phase %s: orders of %s that are none of %s's mails", side, ph.ID, o.Side, side)
				}
			}
		}
		if orders == 0 {
			t.Errorf("%s's page shows none of its accepted orders", side)
		}
		for i, m := range p.Maps {
			if !maps[string(m)] {
				t.Errorf("%s's page: map %d is none of %s's mails' maps", side, i, side)
			}
		}
		if p.Revealed == "" || !texts[p.Revealed] {
			t.Errorf("%s's page: the final report is not %s's final mail", side, side)
		}
		var b bytes.Buffer
		if err := p.Write(&b); err != nil {
			t.Fatal(err)
		}
		for _, other := range g.Rules.Sides() {
			if other != side && strings.Contains(b.String(), "<h4>"+string(other)+"</h4>") {
				t.Errorf("%s's page shows orders of %s", side, other)
			}
		}
		for _, ph := range p.Phases {
			if ph.Whole != -1 {
				t.Errorf("%s's page, phase %s: holds the whole map, fog lifted (map %d)", side, ph.ID, ph.Whole)
			}
		}
		if strings.Contains(b.String(), `<figure class="whole">`) || strings.Contains(b.String(), "map of the whole game") {
			t.Errorf("%s's page shows the whole map, fog lifted", side)
		}
	}
}

// replayAttachedToFinalReports checks that each player's final report
// (as the demo player kept it) attached the whole game's page, the very
// bytes skagerrak replay writes from the log afterwards, and said so.
func replayAttachedToFinalReports(t *testing.T, dir string, p *replaypage.Page) {
	file := filepath.Join(t.TempDir(), "replay.html")
	if code, out, errs := run(t, "replay", filepath.Join(dir, "games", "demo-1"), "--html", file); code != 0 {
		t.Fatalf("replay: exit %d\n%s%s", code, out, errs)
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, side := range p.Sides {
		got, _ := filepath.Glob(filepath.Join(dir, "mail", string(side), "*-"+adjudicator.ReplayName("demo-1")))
		if len(got) != 1 {
			t.Fatalf("%s kept %d replay pages from its mails, want the one its final report attached", side, len(got))
		}
		b, err := os.ReadFile(got[0])
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, want) {
			t.Errorf("%s's final report attached %d bytes, not the %d bytes of the page skagerrak replay writes", side, len(b), len(want))
		}
		text, err := os.ReadFile(strings.TrimSuffix(got[0], "-"+adjudicator.ReplayName("demo-1")) + ".txt")
		if err != nil || !strings.Contains(string(text), "The replay of the whole game is attached as demo-1-replay.html") {
			t.Errorf("%s's final report does not say the replay is attached (%v)", side, err)
		}
	}
}

// keptMail reads the mails a demo player kept: their texts and maps.
func keptMail(t *testing.T, dir string) (texts, maps map[string]bool) {
	t.Helper()
	texts, maps = map[string]bool{}, map[string]bool{}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasSuffix(e.Name(), "-map.png"):
			maps[string(b)] = true
		case strings.HasSuffix(e.Name(), ".txt"):
			texts[string(b)] = true
		}
	}
	if len(texts) == 0 {
		t.Fatalf("no mail kept in %s", dir)
	}
	return texts, maps
}

// replayRefusesAGameGoingOn checks that the whole game's page is not
// made before the end, which would show each side the other's secrets.
func replayRefusesAGameGoingOn(t *testing.T, dir string) {
	raw, err := os.ReadFile(filepath.Join(dir, "games", "demo-1", adjudicator.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(raw, []byte("\n"))
	cut := filepath.Join(t.TempDir(), adjudicator.LogFile)
	if err := os.WriteFile(cut, bytes.Join(lines[:len(lines)/2], nil), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errs := run(t, "replay", cut, "--html", filepath.Join(t.TempDir(), "r.html"))
	if code == 0 || !strings.Contains(errs, "is not over") || !strings.Contains(errs, "--side") {
		t.Errorf("replay of a game going on: exit %d, %s; want a refusal naming --side", code, errs)
	}
	out := filepath.Join(t.TempDir(), "allied.html")
	if code, _, errs := run(t, "replay", cut, "--html", out, "--side", "Allied"); code != 0 {
		t.Fatalf("a side's history so far: exit %d, %s", code, errs)
	}
}

// unframed is a file store's log without the frames of its batches
// (events: Batches): its records, as the page embeds them.
func unframed(log []byte) []byte {
	return regexp.MustCompile(`,"batch":\[[0-9]+,[0-9]+\]}\n`).ReplaceAll(log, []byte("}\n"))
}
