package replaylogs

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"skagerrak/adjudicator"
	"skagerrak/adjudicator/replaypage"
	"skagerrak/internal/browsertest"
	"skagerrak/internal/hosttest"
	"skagerrak/internal/wiring"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestReplayManualDiceInBrowser opens the replay of a checked-in game with
// manual dice: the page verifies the chain and the commitment, and says
// plainly that it did not derive the rolls, which no secret gave.
func TestReplayManualDiceInBrowser(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "manual.html")
	if code, out, errs := run(t, "replay", filepath.Join(hosttest.CheckedInLogs(t), "kriegsmarine-r2-manual.jsonl"), "--html", file); code != 0 {
		t.Fatalf("replay: exit %d\n%s%s", code, out, errs)
	}
	ctx := browsertest.Browser(t, func(any) {})
	verdict := browsertest.OpenPage(t, ctx, "file://"+file)
	// 111 records, the last two mail sent after record 109 ended the game.
	if !strings.HasPrefix(verdict, "verified: 109 records, signatures not checked (the players' registered keys are stand-ins, not OpenPGP keys: nothing was signed), rolls not checked (the dice were supplied by hand") {
		t.Errorf("the page of a manual-dice game says %q", verdict)
	}
}

// TestReplayCheckedInLogsVerifyInBrowser has the page's script check every
// finished game kept under testdata/logs (each ruleset revision, seeded
// and manual dice), which skagerrak verify holds intact: the page must
// agree, record for record, and check as many signatures as verify does
// (the games played by signed mail; the others' keys are stand-ins that
// sign nothing, and the page says so).
func TestReplayCheckedInLogsVerifyInBrowser(t *testing.T) {
	t.Parallel()
	logs, err := filepath.Glob(filepath.Join(hosttest.CheckedInLogs(t), "*.jsonl"))
	if err != nil || len(logs) == 0 {
		t.Fatalf("no checked-in logs: %v", err)
	}
	ctx := browsertest.Browser(t, func(any) {})
	for _, l := range logs {
		raw, err := os.ReadFile(l)
		if err != nil {
			t.Fatal(err)
		}
		p := &replaypage.Page{Game: filepath.Base(l), Log: raw}
		var b bytes.Buffer
		if err := p.Write(&b); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), "page.html")
		if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("verified: %d records, %s, ", bytes.Count(raw, []byte("\n")), goSignatures(t, l))
		verdict := browsertest.OpenPage(t, ctx, "file://"+file)
		if !strings.HasPrefix(verdict, want) {
			t.Errorf("%s: the page says %q, want %q...", l, verdict, want)
		}
		ms, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.dataset.verifyMs`))
		t.Logf("%s: checked in %s ms: %s", filepath.Base(l), ms, verdict[:min(len(verdict), 60)])
	}
}

// goSignatures is how the page must count a checked-in log's signatures:
// as many as skagerrak verify checks, or, for the scripted players' games
// under stand-in keys, none, said so.
func goSignatures(t *testing.T, path string) string {
	t.Helper()
	if !strings.HasSuffix(path, "-demo.jsonl") {
		return "signatures not checked (the players' registered keys are stand-ins"
	}
	rep, err := adjudicator.VerifyPath(path, wiring.Verifier{})
	if err != nil || rep.Signatures == 0 {
		t.Fatalf("verify %s: %d signatures, %v", path, rep.Signatures, err)
	}
	return fmt.Sprintf("%d signatures", rep.Signatures)
}
