package commands

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestDemoPlaysByMailAndVerifies(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "demo")
	code, out, errs := run(t, "demo", "--ruleset", "racetest", "--dir", dir)
	if code != 0 {
		t.Fatalf("demo exit %d\n%s\n%s", code, out, errs)
	}
	t.Log(out)
	for _, want := range []string{"game over: the rules ended it", "verify: intact", "1 rejected", "receipts: the host-signed receipts each player kept all match the final log"} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
	demoSummaryReadsAsEnglish(t, out)
	gameDir := filepath.Join(dir, "games", "demo-1")
	if code, out, errs := run(t, "verify", gameDir); code != 0 {
		t.Fatalf("verify: %d %s %s", code, out, errs)
	}
	// Changing a single accepted order makes verify fail at that seq.
	logPath := filepath.Join(gameDir, "events.jsonl")
	b, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	seq := ""
	for i, l := range lines {
		if strings.Contains(l, `"type":"OrdersAccepted"`) && strings.Contains(l, `advance 2`) {
			lines[i] = strings.Replace(l, `advance 2`, `advance 3`, 1)
			seq = regexp.MustCompile(`^\{"seq":(\d+)`).FindStringSubmatch(l)[1]
			break
		}
	}
	if seq == "" {
		t.Fatal("no accepted order with advance 2 in the log")
	}
	if err := os.WriteFile(logPath, []byte(strings.Join(lines, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs = run(t, "verify", gameDir)
	if code == 0 || !strings.Contains(errs, "record "+seq) {
		t.Errorf("verify of a changed order: exit %d, want non-zero naming record %s:\n%s%s", code, seq, out, errs)
	}
}

func TestConfigExampleAndBadConfig(t *testing.T) {
	code, out, _ := run(t, "config", "example")
	if code != 0 || !strings.Contains(out, "imap:") {
		t.Fatalf("config example: %d %s", code, out)
	}
	f := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(f, []byte("data_dri: x\n"), 0o600)
	code, _, errs := run(t, "--config", f, "status")
	if code == 0 || !strings.Contains(errs, "data_dri") || !strings.Contains(errs, f) {
		t.Errorf("typo in config: %d %s", code, errs)
	}
}

func TestVerifyMissingGame(t *testing.T) {
	code, _, errs := run(t, "verify", filepath.Join(t.TempDir(), "nope"))
	if code == 0 || !strings.Contains(errs, "nope") {
		t.Errorf("verify of a missing path: %d %s", code, errs)
	}
}

func TestRulesListsSectionsWithTests(t *testing.T) {
	code, out, _ := run(t, "rules")
	if code != 0 || !strings.Contains(out, "kriegsmarine") || !strings.Contains(out, "norway1940") {
		t.Fatalf("rules: %s", out)
	}
	for game, section := range map[string]string{"kriegsmarine": "6.12", "norway1940": "10.5.8"} {
		code, out, _ := run(t, "rules", game)
		if code != 0 || !strings.Contains(out, section) || !strings.Contains(out, "tests: Test") || !strings.Contains(out, "implemented:") {
			t.Errorf("rules %s:\n%.600s", game, out)
		}
	}
	if code, _, errs := run(t, "rules", "chess"); code == 0 || !strings.Contains(errs, "unknown ruleset") {
		t.Errorf("rules chess: %d %s", code, errs)
	}
}
