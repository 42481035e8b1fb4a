package adjudicator

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"skagerrak/engine"
	_ "skagerrak/engine/rulesets" // every ruleset the command plays
)

// rulesetNames lists every registered ruleset, the test one included (but
// quietrace, which one test registers for itself).
func rulesetNames() []string {
	var out []string
	for _, r := range engine.Rulesets() {
		if _, quiet := r.(quietRace); quiet { // one test registers it for itself
			continue
		}
		out = append(out, r.Name())
	}
	return out
}

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// TestGoldenMails renders every kind of mail of every ruleset from a game
// played a few phases by the scripted players, and compares each with its
// golden file (go test ./adjudicator -run Golden -update rewrites them).
func TestGoldenMails(t *testing.T) {
	for _, name := range rulesetNames() {
		t.Run(name, func(t *testing.T) {
			if _, err := os.Stat(filepath.Join("testdata", "golden", name)); err != nil && !*update {
				t.Fatalf("no golden mails of %s (a new ruleset?): go test ./adjudicator -run Golden -update writes them (%v)", name, err)
			}
			mails := playForGolden(t, name)
			for key, text := range mails {
				path := filepath.Join("testdata", "golden", name, key+".txt")
				if *update {
					os.MkdirAll(filepath.Dir(path), 0o755)
					if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Errorf("%s: no golden file (run with -update): %v", key, err)
					continue
				}
				if string(want) != text {
					t.Errorf("%s differs from %s (run with -update if the change is meant):\n%s", key, path, firstDiff(string(want), text))
				}
			}
			for _, l := range strings.Split(wrapCheck(mails), "\n") {
				if l != "" {
					t.Error(l)
				}
			}
		})
	}
	checkRenderStamp(t)
}

// checkRenderStamp holds the golden mails to RenderRevision: the stamp file
// records, for each ruleset, the revision and a digest of its golden files,
// so that mail text cannot change without the revision going up (old logs'
// mails would no longer render to their recorded digests, and verify must
// know). A new ruleset's golden mails need only -update: no game played
// before has mails of it.
func checkRenderStamp(t *testing.T) {
	t.Helper()
	stampPath := filepath.Join("testdata", "golden", "render-revision")
	digests := goldenDigests(t)
	var stamp strings.Builder
	for _, name := range engine.SortedKeys(digests) {
		fmt.Fprintf(&stamp, "%s %d %s\n", name, RenderRevision, digests[name])
	}
	old, _ := os.ReadFile(stampPath)
	if string(old) == stamp.String() {
		return
	}
	stale := false
	for _, l := range strings.Split(string(old), "\n") {
		var name, digest string
		var rev int
		if n, _ := fmt.Sscan(l, &name, &rev, &digest); n != 3 {
			continue
		}
		switch {
		case rev == RenderRevision && digests[name] != "" && digests[name] != digest:
			t.Errorf("the golden mails of %s changed under render revision %d: raise adjudicator.RenderRevision (mails of games already played render otherwise now), then run -update", name, RenderRevision)
		case rev != RenderRevision:
			stale = true
		}
	}
	switch {
	case t.Failed():
	case *update:
		if err := os.WriteFile(stampPath, []byte(stamp.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	case stale:
		t.Errorf("%s records an earlier render revision than the build's %d: run -update", stampPath, RenderRevision)
	default:
		t.Errorf("%s does not list the golden mails of each ruleset as they are (a ruleset added or removed): run -update", stampPath)
	}
}

// goldenDigests is a digest of each ruleset's golden files, by ruleset.
func goldenDigests(t *testing.T) map[string]string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "golden", "*", "*.txt"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	sort.Strings(paths)
	hashes := map[string]hash.Hash{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(filepath.Dir(p))
		if hashes[name] == nil {
			hashes[name] = sha256.New()
		}
		fmt.Fprintf(hashes[name], "%s %d\n", filepath.ToSlash(p), len(b))
		hashes[name].Write(b)
	}
	out := map[string]string{}
	for name, h := range hashes {
		out[name] = fmt.Sprintf("%x", h.Sum(nil))
	}
	return out
}

// wrapCheck reports lines of the text mails wider than 72 columns.
func wrapCheck(mails map[string]string) string {
	var b strings.Builder
	keys := make([]string, 0, len(mails))
	for k := range mails {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if strings.HasSuffix(k, ".json") || strings.HasPrefix(k, "final") {
			continue
		}
		text := mails[k]
		if i := strings.Index(text, "\n\n"); strings.HasPrefix(text, "Subject:") && i > 0 {
			text = text[i+2:] // the Subject: header is not body text
		}
		if i := strings.Index(text, "\nGame: "); i > 0 && (strings.HasPrefix(k, "report") || strings.HasPrefix(k, "accepted")) {
			text = text[:i] // the order file is kept as the player must send it
		}
		for i, l := range strings.Split(text, "\n") {
			if n := len([]rune(l)); n > 72 {
				fmt.Fprintf(&b, "%s line %d is %d columns wide: %q\n", k, i+1, n, l)
			}
		}
	}
	return b.String()
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n  golden: %q\n  now:    %q", i+1, x, y)
		}
	}
	return ""
}

// playForGolden plays three phases and collects one mail of each kind per
// side: "report-SIDE", "accepted-SIDE", "rejected-SIDE", "reminder-SIDE",
// "notice-SIDE", "flag-referee", "final-SIDE".
func playForGolden(t *testing.T, name string) map[string]string {
	t.Helper()
	dir := t.TempDir()
	clk := &testClock{t: time.Date(2026, 4, 8, 6, 0, 0, 0, time.UTC)}
	h, err := OpenHost(dir, Options{Clock: clk, Entropy: bytes.NewReader(bytes.Repeat([]byte{42}, 64))})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	rs, _ := engine.Lookup(name)
	spec := Spec{Game: "golden", Ruleset: name, HostFrom: "host@skagerrak.example",
		Referee: &Player{Side: Referee, Address: "ref@example.org", Key: "kr", Fingerprint: "FPR"},
		Timing:  Timing{Deadline: Duration(48 * time.Hour), Reminder: Duration(12 * time.Hour), FlagAfter: 1, PauseLimit: 1}}
	for i, s := range rs.Sides() {
		spec.Players = append(spec.Players, Player{Side: s, Address: string(s) + "@example.org", Key: "k", Fingerprint: fmt.Sprint("FP", i)})
	}
	if _, err := h.Create(spec); err != nil {
		t.Fatal(err)
	}
	g, _ := h.Game("golden")
	bot := rs.(engine.Player)
	for phase := 0; phase < 3 && g.Ended == nil; phase++ {
		owing := g.Owing()
		for i, s := range owing {
			if phase == 1 && i == len(owing)-1 && len(owing) > 0 {
				// The last owing side misses phase 2: reminder, NMR, flag.
				clk.Add(36 * time.Hour)
				mustTick(t, h)
				clk.Add(12 * time.Hour)
				mustTick(t, h)
				break
			}
			if phase == 0 {
				submit(t, h, "golden", s, orders("golden", g.Opened.Phase, string(s), "this is no order"))
			}
			body := bot.Play(rs.View(g.State, s), s, engine.NewSeededDice([]byte("golden"), string(s), g.Opened.Phase, [32]byte{}))
			submit(t, h, "golden", s, orders("golden", g.Opened.Phase, string(s), body))
		}
		clk.Add(time.Hour)
	}
	if err := h.Referee("golden", Command{Name: "extend", Args: []string{"24h"}, Why: "a player travels"}); err != nil {
		t.Fatal(err)
	}
	if err := h.Referee("golden", Command{Name: "end", Why: "golden files need a final report"}); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	ms, err := Mails(LogReader{Path: filepath.Join(dir, "golden", LogFile)}, func(MailQueued) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		kind := strings.Split(m.ID, ".")[2]
		side := strings.Split(strings.Split(m.ID, ".")[3], "@")[0]
		out[kind+"-"+side] = "Subject: " + m.Subject + "\n\n" + m.Text // the latest of each kind
		for _, a := range m.Attachments {
			if a.Name == "report.json" {
				out[kind+"-"+side+".json"] = string(a.Data)
			}
		}
	}
	return out
}
