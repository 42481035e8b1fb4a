package replaypage

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/png"
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
	"skagerrak/internal/browsertest"
	"skagerrak/internal/wiring"
)

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
	ctx := browsertest.Browser(t, req.listen)
	file := filepath.Join(t.TempDir(), "replay.html")
	if code, out, errs := run(t, "replay", filepath.Join(dir, "games", "demo-1"), "--html", file); code != 0 {
		t.Fatalf("replay: exit %d\n%s%s", code, out, errs)
	}
	st, _ := os.Stat(file)
	req.mu.Lock()
	req.page = "file://" + file
	req.mu.Unlock()
	start := time.Now()
	verdict := browsertest.OpenPage(t, ctx, req.page)
	opened := time.Since(start)
	if !strings.HasPrefix(verdict, "verified: ") || !strings.Contains(verdict, "rolls (the hash chain") {
		t.Fatalf("the page says %q, want verified with every roll checked", verdict)
	}
	rep, err := adjudicator.VerifyPath(filepath.Join(dir, "games", "demo-1"), wiring.Verifier{})
	if err != nil || rep.Signatures == 0 {
		t.Fatalf("verify: %d signatures, %v", rep.Signatures, err)
	}
	// The page holds the log to the record that ended the game (what
	// follows is mail sent, and signs nothing).
	if want := fmt.Sprintf("verified: %d records, %d signatures, ", bytes.Count(p.Log, []byte("\n")), rep.Signatures); !strings.HasPrefix(verdict, want) || rep.Events <= uint64(bytes.Count(p.Log, []byte("\n"))) {
		t.Errorf("the page says %q, want it to begin %q (as verify counts, %d records in all)", verdict, want, rep.Events)
	}
	chacha8MatchesGo(t, ctx)
	mapsShown(t, ctx)
	steps := len(p.Phases)
	var step, inPage time.Duration
	for i := 1; i <= steps; i++ {
		// A player reads a phase before the next: its maps are rebuilt
		// ahead meanwhile.
		if err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](fmt.Sprintf(`document.querySelector("#p%d").dataset.ahead === "yes"`, i-1), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			t.Fatalf("rebuilding the maps after phase %d: %v", i-1, err)
		}
		start := time.Now()
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight),
			chromedp.Poll[chromedp.Void](fmt.Sprintf(`document.querySelector("#p%d").dataset.drawn === "yes"`, i), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			t.Fatalf("stepping to phase %d of %d: %v", i, steps, err)
		}
		step += time.Since(start)
		inPage += drawnIn(t, ctx, i)
	}
	inPage /= time.Duration(steps)
	step /= time.Duration(steps)
	final, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#final").checkVisibility() ? document.querySelector("#final").innerText : ""`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(final, p.Result.Summary) {
		t.Errorf("the last phase shows %q, want the result %q", final, p.Result.Summary)
	}
	mapsExact(t, ctx, p, steps-1)
	jump := jumpBack(t, ctx, steps/2)
	req.mu.Lock()
	if len(req.got) > 0 {
		t.Errorf("the page made %d requests: %v", len(req.got), req.got)
	}
	req.mu.Unlock()
	t.Logf("%s: %.1f MB, %d phases, %d maps; opened and verified in %v; a step (arrow key to maps painted) in %v as the page measures it, %v with the DevTools round trips; a jump to a phase not seen lately in %v (headless Chromium)", ruleset, float64(st.Size())/1e6, len(p.Phases), len(p.Maps), opened.Round(time.Millisecond), inPage.Round(time.Millisecond), step.Round(time.Millisecond), jump)

	tampered(t, ctx, p)
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
		chromedp.Poll[chromedp.Void](`document.querySelector("#p1").dataset.drawn === "yes"`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the maps of the first phase: %v", err)
	}
	drawn, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`Array.from(document.querySelectorAll("section.phase:not([hidden]) canvas.map"), c => c.width)`))
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

// jumpBack jumps from the end to phase i (of the middle, whose maps are
// no longer kept) by the phase list, after going to the start, and returns how long
// until its maps were painted, as the page measured it.
func jumpBack(t *testing.T, ctx context.Context, i int) time.Duration {
	t.Helper()
	click := func(i int) {
		if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector('#list a[data-i="%d"]').click()`, i)),
			chromedp.Poll[chromedp.Void](fmt.Sprintf(`document.querySelector("#p%d").dataset.drawn === "yes"`, i), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			t.Fatalf("jumping to phase %d: %v", i, err)
		}
	}
	click(0)
	click(1)
	click(i)
	return drawnIn(t, ctx, i)
}

// drawnIn returns how long phase i took to show its maps, painted, as
// the page measured it (from the key or click).
func drawnIn(t *testing.T, ctx context.Context, i int) time.Duration {
	t.Helper()
	ms, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.querySelector("#p%d").dataset.ms`, i)))
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(ms)
	if err != nil {
		t.Fatalf("phase %d: the page says it was drawn in %q ms", i, ms)
	}
	return time.Duration(n) * time.Millisecond
}

// mapsExact checks that the maps the page rebuilt for phase i (most of
// them from the rows of the maps before and the pixels that changed) are,
// pixel for pixel, the maps the reports attached.
func mapsExact(t *testing.T, ctx context.Context, p *replaypage.Page, i int) {
	t.Helper()
	js := fmt.Sprintf(`(async () => { const out = []; for (const c of document.querySelectorAll("#p%d canvas.map")) { const m = Number(c.dataset.map); out.push([String(m), (await mapPictures.picture(m)).toDataURL("image/png")]); } return out; })()`, i)
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[][]string](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 {
		t.Fatalf("phase %d shows no map", i)
	}
	for _, g := range got {
		m, _ := strconv.Atoi(g[0])
		raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(g[1], "data:image/png;base64,"))
		if err != nil {
			t.Fatal(err)
		}
		shown, err := png.Decode(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("map %d as the page drew it: %v", m, err)
		}
		want, _ := png.Decode(bytes.NewReader(p.Maps[m]))
		if shown.Bounds() != want.Bounds() {
			t.Fatalf("map %d: the page drew %v, the report's is %v", m, shown.Bounds(), want.Bounds())
		}
		b := want.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if color.NRGBAModel.Convert(shown.At(x, y)) != color.NRGBAModel.Convert(want.At(x, y)) {
					t.Fatalf("map %d: the page drew pixel (%d,%d) %v, the report's is %v", m, x, y, shown.At(x, y), want.At(x, y))
				}
			}
		}
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
	verdict := browsertest.OpenPage(t, ctx, "file://"+file)
	want := fmt.Sprintf("NOT VERIFIED: record %d ", n+1)
	if !strings.HasPrefix(verdict, want) {
		t.Errorf("the page with record %d changed says %q, want it to begin %q", n+1, verdict, want)
	}
}
