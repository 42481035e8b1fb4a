package receipts

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"skagerrak/adjudicator"
	"skagerrak/engine"
	"skagerrak/internal/hosttest"
)

// finishedGame copies a checked-in finished game into a data directory,
// keeping its first n records (all when n is 0), and returns the data
// directory and the game's creation and end as recorded.
func finishedGame(t *testing.T, log string, n int) (string, adjudicator.GameCreated, *adjudicator.GameEnded) {
	t.Helper()
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	if n > 0 {
		lines = lines[:n]
	}
	var created adjudicator.GameCreated
	var ended *adjudicator.GameEnded
	sc := bufio.NewScanner(bytes.NewReader(bytes.Join(lines, nil)))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var ev struct {
			Type string          `json:"type"`
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		switch ev.Type {
		case "GameCreated":
			json.Unmarshal(ev.Data, &created)
		case "GameEnded":
			ended = &adjudicator.GameEnded{}
			json.Unmarshal(ev.Data, ended)
		}
	}
	data := t.TempDir()
	os.MkdirAll(filepath.Join(data, created.Game), 0o700)
	if err := os.WriteFile(filepath.Join(data, created.Game, adjudicator.LogFile), bytes.Join(lines, nil), 0o600); err != nil {
		t.Fatal(err)
	}
	return data, created, ended
}

// TestReportJSONAfterTheEndEveryRuleset: once a game is over, `report
// --json` prints the final report's JSON copy for every side of every
// ruleset and revision (the checked-in demo games, one for each revision
// of every ruleset): the side's final View, the result and points as the
// log records them, the whole final state, every phase's orders, and the
// dice secret that the creation committed to.
func TestReportJSONAfterTheEndEveryRuleset(t *testing.T) {
	seen := map[string]bool{}
	logs, _ := filepath.Glob(filepath.Join(hosttest.CheckedInLogs(t), "*-demo.jsonl"))
	for _, log := range logs {
		var name string
		var rev int
		if _, err := fmt.Sscanf(strings.ReplaceAll(filepath.Base(log), "-", " "), "%s r%d demo.jsonl", &name, &rev); err != nil {
			t.Fatalf("%s: %v", log, err)
		}
		rs, err := engine.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		data, created, ended := finishedGame(t, log, 0)
		if ended == nil || ended.Why != "over" || ended.Result == nil {
			t.Fatalf("%s: the checked-in demo did not end by the rules: %+v", log, ended)
		}
		for _, side := range rs.Sides() {
			code, out, errs := run(t, "--data-dir", data, "report", created.Game, "--side", string(side), "--json")
			if code != 0 {
				t.Fatalf("%s %s: exit %d: %s", rs.Name(), side, code, errs)
			}
			var f struct {
				adjudicator.FinalJSON
				View     json.RawMessage `json:"view"`
				Revealed struct {
					Text  string          `json:"text"`
					State json.RawMessage `json:"state"`
				} `json:"revealed"`
			}
			if err := json.Unmarshal([]byte(out), &f); err != nil {
				t.Fatalf("%s %s: %v\n%s", rs.Name(), side, err, out)
			}
			if f.Schema != adjudicator.FinalSchema || f.Ruleset != rs.Name() || f.Side != side || f.Game != created.Game || f.Revision != rev || f.Ended != "over" {
				t.Errorf("%s %s: header %+v", rs.Name(), side, f.FinalJSON)
			}
			if !reflect.DeepEqual(f.Result, ended.Result) {
				t.Errorf("%s %s: result %+v, the log ended with %+v", rs.Name(), side, f.Result, ended.Result)
			}
			sum := sha256.Sum256(mustHex(t, f.Secret))
			if f.Secret != ended.Secret || hex.EncodeToString(sum[:]) != created.SecretCommitment {
				t.Errorf("%s %s: secret %q does not open the commitment %s", rs.Name(), side, f.Secret, created.SecretCommitment)
			}
			st, err := rs.DecodeState(f.Revealed.State)
			if err != nil || rs.Result(st) == nil || rs.Result(st).Summary != ended.Result.Summary {
				t.Errorf("%s %s: the revealed state is not the final state (%v)", rs.Name(), side, err)
				continue
			}
			want, _ := json.Marshal(rs.View(st, side))
			var got bytes.Buffer
			json.Compact(&got, f.View)
			if got.String() != string(want) {
				t.Errorf("%s %s: the view is not the side's View of the final state", rs.Name(), side)
			}
			if rv, ok := rs.(engine.Revealer); ok && f.Revealed.Text != rv.Reveal(st) {
				t.Errorf("%s %s: revealed text differs from the final report's", rs.Name(), side)
			}
			if len(f.Moves) == 0 || f.Moves[0].Phase == "" || len(f.Moves[len(f.Moves)-1].Orders) == 0 {
				t.Errorf("%s %s: moves %d", rs.Name(), side, len(f.Moves))
			}
			seen[fmt.Sprintf("%s-r%d", rs.Name(), rev)] = true
		}
	}
	for _, rs := range engine.Rulesets() {
		if strings.HasPrefix(reflect.TypeOf(rs).PkgPath(), "skagerrak/engine/enginetest") {
			continue // a test ruleset, played by no host
		}
		for rev := 1; rev <= engine.CurrentRevision(rs); rev++ {
			if n := fmt.Sprintf("%s-r%d", rs.Name(), rev); !seen[n] {
				t.Errorf("no demo game of %s revision %d: check one in as testdata/logs/%s-demo.jsonl (skagerrak demo --ruleset %[1]s; see testdata/logs/README.md)", rs.Name(), rev, n)
			}
		}
	}
}

// TestReportJSONBeforeTheEndRevealsNothing: the same game cut before its
// end has no final report; `report --json` prints the last turn report,
// which holds neither the revealed state nor the dice secret.
func TestReportJSONBeforeTheEndRevealsNothing(t *testing.T) {
	log := filepath.Join(hosttest.CheckedInLogs(t), "norge-r1-demo.jsonl")
	b, _ := os.ReadFile(log)
	cut := 0
	for i, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, `"type":"GameEnded"`) {
			cut = i // the records before the end
		}
	}
	data, created, ended := finishedGame(t, log, cut)
	if ended != nil {
		t.Fatal("the cut log still ends")
	}
	for _, side := range []string{"german", "allied"} {
		code, out, errs := run(t, "--data-dir", data, "report", created.Game, "--side", side, "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", side, code, errs)
		}
		if !strings.Contains(out, `"schema": "skagerrak-report/1"`) || strings.Contains(out, adjudicator.FinalSchema) ||
			strings.Contains(out, `"revealed"`) || strings.Contains(out, `"secret"`) {
			t.Errorf("%s: before the end, report --json is not the plain turn report:\n%.400s", side, out)
		}
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("secret %q: %v", s, err)
	}
	return b
}
