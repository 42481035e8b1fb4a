// Package browsertest opens skagerrak's replay pages in headless Chromium
// for tests: a browser (skipping loudly without Chromium, failing under
// SKAGERRAK_INTEROP=1), a page's verdict on its log, and the check that a
// game's page verifies as many signatures as skagerrak verify does.
package browsertest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"skagerrak/adjudicator"
	"skagerrak/adjudicator/replaypage"
	"skagerrak/events"
)

// chromiumPath is where Debian installs Chromium.
const chromiumPath = "/usr/bin/chromium"

// Browser starts a headless Chromium with a fresh profile, with nothing
// of its own on the network; it skips the test loudly when Chromium is not
// installed (fails under SKAGERRAK_INTEROP=1).
func Browser(t *testing.T, listen func(ev any)) context.Context {
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
		// Chromium's own files (its singleton socket) in the test's
		// directory, removed with it, not left in /tmp.
		chromedp.Env("TMPDIR="+t.TempDir()),
		chromedp.WindowSize(1400, 1000))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx, chromedp.WithListener(listen))
	t.Cleanup(func() { cancelB(); cancelA() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	ctx, cancelC := context.WithTimeout(ctx, 8*time.Minute) // a whole ruleset on a loaded machine
	t.Cleanup(cancelC)
	return ctx
}

// OpenPage opens the page and returns what its verification box says once
// it has checked the log.
func OpenPage(t *testing.T, ctx context.Context, url string) string {
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

// PageChecksAsVerify opens the page of a game's log and requires it to
// say verified, with as many signatures checked as verify checked.
func PageChecksAsVerify(t *testing.T, gameDir string, signatures int) {
	t.Helper()
	log := RecordLines(t, filepath.Join(gameDir, adjudicator.LogFile))
	var b bytes.Buffer
	if err := (&replaypage.Page{Game: filepath.Base(gameDir), Log: log}).Write(&b); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "page.html")
	os.WriteFile(file, b.Bytes(), 0o644)
	verdict := OpenPage(t, Browser(t, func(any) {}), "file://"+file)
	if want := fmt.Sprintf("verified: %d records, %s, ", bytes.Count(log, []byte("\n")), plural(signatures, "signature")); !strings.HasPrefix(verdict, want) {
		t.Errorf("the page of %s says %q, want it to begin %q", gameDir, verdict, want)
	}
}

// plural is "1 signature", "2 signatures".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// RecordLines returns a log file's records, one a line, as the replay
// page embeds them: without the frames the file store puts on a batch.
func RecordLines(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b bytes.Buffer
	for ev, err := range events.NewReader(f, path).All() {
		if err != nil {
			t.Fatal(err)
		}
		line, err := ev.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}
