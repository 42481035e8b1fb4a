package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// demoSummaryReadsAsEnglish checks the demo's summary: why the game ended
// in words (not "game over: over"), singular and plural as the numbers
// ask, and the messages to the host adding up (accepted and rejected are
// the order mails and the unsigned one, not more than were sent).
func demoSummaryReadsAsEnglish(t *testing.T, out string) {
	t.Helper()
	for _, bad := range []string{"game over: over", " 1 phases", " 1 messages", " 1 mails", " 1 order mails", " 1 dice ", " 1 signatures", " 1 dice rolls"} {
		if strings.Contains(out, bad) {
			t.Errorf("the demo says %q:\n%s", bad, out)
		}
	}
	re := regexp.MustCompile(`(\d+) messages? to the host \((\d+) order mails? from the players, and the unsigned one\): (\d+) accepted, (\d+) rejected`)
	m := re.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("the demo does not sum up the mail to the host:\n%s", out)
	}
	n := make([]int, 5)
	for i := 1; i < 5; i++ {
		n[i], _ = strconv.Atoi(m[i])
	}
	if n[1] != n[2]+1 || n[3]+n[4] != n[1] {
		t.Errorf("the demo's numbers do not add up: %s", m[0])
	}
}

// A name that is not there is answered with the names that are: games
// (status, report, log), sides and phases (report), rulesets (new, rules).
// status where there is no data directory says where it looked and how to
// name the right one.
func TestUnknownNamesListTheValidOnes(t *testing.T) {
	e := newMailEnv(t, 2)
	cfg := configFor(t, e)
	dd := e.dataDir()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"status", "norge-2"}, `no game "norge-2" in ` + dd + "; the games there: g000, g001"},
		{[]string{"report", "norge-2", "--side", "allied"}, `no game "norge-2" in ` + dd + "; the games there: g000, g001"},
		{[]string{"log", "norge-2"}, `the games there: g000, g001`},
		{[]string{"report", "g000", "--side", "germans"}, `game g000 has no side "germans"; its sides: allied, german`},
		{[]string{"report", "g000", "--side", "german", "--phase", "T05"}, `game g000 has no report of german's for phase "T05"; it has only its first report so far`},
		{[]string{"new", "--game", "x", "--ruleset", "kriegsmarin"}, `unknown ruleset "kriegsmarin"; the rulesets: `},
		{[]string{"rules", "kriegsmarin"}, `unknown ruleset "kriegsmarin"; the rulesets: `},
	}
	for _, c := range cases {
		code, out, errs := run(t, append([]string{"--config", cfg}, c.args...)...)
		if code == 0 || !strings.Contains(errs, c.want) {
			t.Errorf("%s: exit %d, want an error saying %q:\n%s%s", c.args, code, c.want, out, errs)
		}
	}
	if _, _, errs := run(t, "rules", "kriegsmarin"); !strings.Contains(errs, "kampen, kriegsmarine, norge") {
		t.Errorf("rules does not list the rulesets: %s", errs)
	}
	// Phases, once a side has reports that resolved some.
	e.order(t, 0, "allied", "T01", "advance 2")
	e.order(t, 0, "german", "T01", "advance 1")
	if code, out, errs := run(t, "--config", cfg, "poll", "--once"); code != 0 {
		t.Fatalf("poll: %d %s %s", code, out, errs)
	}
	code, _, errs := run(t, "--config", cfg, "report", "g000", "--side", "german", "--phase", "T05")
	if code == 0 || !strings.Contains(errs, "its reports resolved the phases T01 (--phase takes one of them") {
		t.Errorf("report --phase T05 after T01: exit %d %s", code, errs)
	}
}

// status run where there is no configuration and no ./games says that no
// games were found where, and how to point it at them.
func TestStatusWithoutDataDirSaysWhatToDo(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("SKAGERRAK_CONFIG", "")
	code, out, errs := run(t, "status")
	want := fmt.Sprintf("no games found: the data directory ./games (%s) does not exist; give the configuration that sets data_dir with --config FILE (or SKAGERRAK_CONFIG), or the directory with --data-dir DIR", filepath.Join(dir, "games"))
	if code == 0 || !strings.Contains(errs, want) || strings.Contains(errs, "no such file") {
		t.Errorf("status with no data directory: exit %d\n%s%s\nwant %q", code, out, errs, want)
	}
	cfg := filepath.Join(dir, "skagerrak.yaml")
	os.WriteFile(cfg, []byte("data_dir: "+dir+"/elsewhere\n"), 0o600)
	if code, _, errs := run(t, "--config", cfg, "status"); code == 0 || !strings.Contains(errs, "set data_dir in "+cfg) {
		t.Errorf("status with a configuration naming no directory: exit %d %s", code, errs)
	}
}

// config systemd runs the daemon with the configuration it was given and
// lets it write in that configuration's data directory (ProtectSystem=strict
// makes the rest read-only); without one it prints README's unit.
func TestConfigSystemdHonoursConfig(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "skagerrak.yaml")
	unit := func(dataDir string) map[string]string {
		t.Helper()
		os.WriteFile(cfg, []byte("data_dir: "+dataDir+"\n"), 0o600)
		code, out, errs := run(t, "--config", cfg, "config", "systemd")
		if code != 0 {
			t.Fatalf("config systemd: %d %s", code, errs)
		}
		return unitKeys(out)
	}
	u := unit("/srv/skagerrak/games")
	if u["ExecStart"] != "/usr/local/bin/skagerrak --config "+cfg+" run" || u["ReadWritePaths"] != "/var/lib/skagerrak /srv/skagerrak/games" || u["ProtectSystem"] != "strict" {
		t.Errorf("unit for data_dir /srv/skagerrak/games: ExecStart=%s ReadWritePaths=%s", u["ExecStart"], u["ReadWritePaths"])
	}
	if u := unit("games"); u["ReadWritePaths"] != "/var/lib/skagerrak" {
		t.Errorf("a relative data_dir is under the WorkingDirectory: ReadWritePaths=%s", u["ReadWritePaths"])
	}
	if u := unit("/home/ref/games"); u["ReadWritePaths"] != "/var/lib/skagerrak /home/ref/games" || u["ProtectHome"] != "read-only" {
		t.Errorf("a data_dir in a home: ReadWritePaths=%s ProtectHome=%s", u["ReadWritePaths"], u["ProtectHome"])
	}
	t.Setenv("SKAGERRAK_CONFIG", "")
	_, out, _ := run(t, "config", "systemd")
	if u := unitKeys(out); u["ExecStart"] != "/usr/local/bin/skagerrak --config /etc/skagerrak/skagerrak.yaml run" {
		t.Errorf("without a configuration: ExecStart=%s", u["ExecStart"])
	}
}

// unitKeys is the key=value lines of a unit (one section's keys are
// enough here: each key stands once).
func unitKeys(unit string) map[string]string {
	keys := map[string]string{}
	for _, l := range strings.Split(unit, "\n") {
		if k, v, ok := strings.Cut(l, "="); ok && !strings.HasPrefix(l, "#") {
			keys[k] = v
		}
	}
	return keys
}
