package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"image"
	_ "image/png" // screenshots
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"skagerrak/adjudicator"
	"skagerrak/adjudicator/replaypage"
	"skagerrak/internal/wiring"
)

const chromiumPath = "/usr/bin/chromium"

// browser starts a headless Chromium with a fresh profile, with nothing
// of its own on the network; it skips the test loudly when Chromium is not
// installed (fails under SKAGERRAK_INTEROP=1).
func browser(t *testing.T, listen func(ev any)) context.Context {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("SKAGERRAK_INTEROP") == "1" {
			t.Fatalf("SKAGERRAK_INTEROP=1 but no Chromium at %s: %v", chromiumPath, err)
		}
		t.Skipf("SKIPPED: no Chromium at %s (install Debian's chromium to run the replay page's browser test)", chromiumPath)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.NoFirstRun, chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1400, 1000))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx, chromedp.WithListener(listen))
	t.Cleanup(func() { cancelB(); cancelA() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	ctx, cancelC := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancelC)
	return ctx
}

// requests records every request a page makes that is not the page itself
// nor a data: URL.
type requests struct {
	mu   sync.Mutex
	page string
	got  []string
}

func (r *requests) listen(ev any) {
	e, ok := ev.(*network.EventRequestWillBeSent)
	if !ok || strings.HasPrefix(e.Request.URL, "data:") {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if e.Request.URL != r.page {
		r.got = append(r.got, e.Request.URL)
	}
}

// replayInBrowser opens the whole game's replay in headless Chromium: it
// says verified, with as many signatures checked as verify checks, every phase steps with the right arrow to the end, which
// shows the result, the maps are drawn, and no request leaves the page. A
// copy with one byte of one record changed says not verified, naming it.
func replayInBrowser(t *testing.T, dir, ruleset string, p *replaypage.Page) {
	req := &requests{}
	ctx := browser(t, req.listen)
	file := filepath.Join(t.TempDir(), "replay.html")
	if code, out, errs := run(t, "replay", filepath.Join(dir, "games", "demo-1"), "--html", file); code != 0 {
		t.Fatalf("replay: exit %d\n%s%s", code, out, errs)
	}
	st, _ := os.Stat(file)
	req.mu.Lock()
	req.page = "file://" + file
	req.mu.Unlock()
	start := time.Now()
	verdict := openPage(t, ctx, req.page)
	opened := time.Since(start)
	if !strings.HasPrefix(verdict, "verified: ") || !strings.Contains(verdict, "rolls (the hash chain") {
		t.Fatalf("the page says %q, want verified with every roll checked", verdict)
	}
	rep, err := adjudicator.VerifyPath(filepath.Join(dir, "games", "demo-1"), wiring.Verifier{})
	if err != nil || rep.Signatures == 0 {
		t.Fatalf("verify: %d signatures, %v", rep.Signatures, err)
	}
	if want := fmt.Sprintf("verified: %d records, %d signatures, ", rep.Events, rep.Signatures); !strings.HasPrefix(verdict, want) {
		t.Errorf("the page says %q, want it to begin %q (as verify counts)", verdict, want)
	}
	chacha8MatchesGo(t, ctx)
	mapsShown(t, ctx)
	steps := len(p.Phases)
	start = time.Now()
	for i := 1; i <= steps; i++ {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight),
			chromedp.Poll[chromedp.Void](fmt.Sprintf(`document.querySelector("#p%d").hidden === false`, i), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			t.Fatalf("stepping to phase %d of %d: %v", i, steps, err)
		}
	}
	step := time.Since(start) / time.Duration(steps)
	final, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#final").checkVisibility() ? document.querySelector("#final").innerText : ""`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(final, p.Result.Summary) {
		t.Errorf("the last phase shows %q, want the result %q", final, p.Result.Summary)
	}
	req.mu.Lock()
	if len(req.got) > 0 {
		t.Errorf("the page made %d requests: %v", len(req.got), req.got)
	}
	req.mu.Unlock()
	t.Logf("%s: %.1f MB, %d phases, %d maps; opened and verified in %v, a step in %v (headless Chromium)", ruleset, float64(st.Size())/1e6, len(p.Phases), len(p.Maps), opened.Round(time.Millisecond), step.Round(time.Millisecond))

	tampered(t, ctx, p)
}

// openPage opens the page and returns what its verification box says once
// it has checked the log.
func openPage(t *testing.T, ctx context.Context, url string) string {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url),
		chromedp.Poll[chromedp.Void](`document.body.dataset.verified`, chromedp.WithPollingTimeout(60*time.Second))); err != nil {
		t.Fatalf("opening %s: %v", url, err)
	}
	verdict, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#verify").textContent`))
	if err != nil {
		t.Fatal(err)
	}
	return verdict
}

// chacha8MatchesGo checks the page's ChaCha8 against math/rand/v2's over
// 1,000 outputs: eight reseeds, each after 16 blocks.
func chacha8MatchesGo(t *testing.T, ctx context.Context) {
	t.Helper()
	seed := sha256.Sum256([]byte("the page's ChaCha8 is Go's"))
	src := rand.NewChaCha8(seed)
	want := make([]string, 1000)
	for i := range want {
		want[i] = strconv.FormatUint(src.Uint64(), 10)
	}
	js := fmt.Sprintf(`(() => { const r = new ChaCha8(new Uint8Array(%s)); return Array.from({length: %d}, () => r.uint64().toString()); })()`, jsBytes(seed[:]), len(want))
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](js))
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			t.Fatalf("the page's ChaCha8 output %d is %v, Go's is %s", i, got[min(i, len(got)-1)], want[i])
		}
	}
}

func jsBytes(b []byte) string {
	s := make([]string, len(b))
	for i, x := range b {
		s[i] = strconv.Itoa(int(x))
	}
	return "[" + strings.Join(s, ",") + "]"
}

// mapsShown steps to the first resolved phase and checks its maps are
// drawn, and a screenshot of it is a picture with something in it.
func mapsShown(t *testing.T, ctx context.Context) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight),
		chromedp.Poll[chromedp.Void](`Array.from(document.querySelectorAll("section.phase:not([hidden]) img.map")).every(i => i.complete && i.naturalWidth > 0)`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the maps of the first phase: %v", err)
	}
	drawn, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`Array.from(document.querySelectorAll("section.phase:not([hidden]) img.map"), i => i.naturalWidth)`))
	if err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
		t.Fatal(err)
	}
	if len(drawn) == 0 {
		t.Fatalf("the first phase shows no map")
	}
	img, _, err := image.Decode(bytes.NewReader(shot))
	if err != nil || len(shot) < 20_000 {
		t.Fatalf("screenshot of the first phase: %d bytes, %v", len(shot), err)
	}
	if colors := distinctColors(img, 16); colors < 16 {
		t.Errorf("the screenshot of the first phase has only %d colours: nothing is drawn", colors)
	}
}

// distinctColors counts the colours of img, up to limit.
func distinctColors(img image.Image, limit int) int {
	seen := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, bl, a}] = true
			if len(seen) >= limit {
				return len(seen)
			}
		}
	}
	return len(seen)
}

// tampered writes a copy of the page whose log has one byte of one
// record's data changed and checks the page names that record.
func tampered(t *testing.T, ctx context.Context, p *replaypage.Page) {
	t.Helper()
	lines := bytes.SplitAfter(p.Log, []byte("\n"))
	n := len(lines) / 2 // record n+1
	line := lines[n]
	i := bytes.Index(line, []byte(`"data":{`)) + len(`"data":{`)
	j := i + bytes.IndexAny(line[i:], "abcdefghijklmnopqrstuvwxyz")
	bad := *p
	bad.Log = bytes.Clone(p.Log)
	off := 0
	for _, l := range lines[:n] {
		off += len(l)
	}
	bad.Log[off+j] ^= 0x20 // a letter's case: still JSON
	var b bytes.Buffer
	if err := bad.Write(&b); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "tampered.html")
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	verdict := openPage(t, ctx, "file://"+file)
	want := fmt.Sprintf("NOT VERIFIED: record %d ", n+1)
	if !strings.HasPrefix(verdict, want) {
		t.Errorf("the page with record %d changed says %q, want it to begin %q", n+1, verdict, want)
	}
}

// TestReplayManualDiceInBrowser opens the replay of a checked-in game with
// manual dice: the page verifies the chain and the commitment, and says
// plainly that it did not derive the rolls, which no secret gave.
func TestReplayManualDiceInBrowser(t *testing.T) {
	file := filepath.Join(t.TempDir(), "manual.html")
	if code, out, errs := run(t, "replay", filepath.Join("testdata", "logs", "kriegsmarine-r2-manual.jsonl"), "--html", file); code != 0 {
		t.Fatalf("replay: exit %d\n%s%s", code, out, errs)
	}
	ctx := browser(t, func(any) {})
	verdict := openPage(t, ctx, "file://"+file)
	if !strings.HasPrefix(verdict, "verified: 111 records, signatures not checked (the players' registered keys are stand-ins, not OpenPGP keys: nothing was signed), rolls not checked (the dice were supplied by hand") {
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
	logs, err := filepath.Glob(filepath.Join("testdata", "logs", "*.jsonl"))
	if err != nil || len(logs) == 0 {
		t.Fatalf("no checked-in logs: %v", err)
	}
	ctx := browser(t, func(any) {})
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
		verdict := openPage(t, ctx, "file://"+file)
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
