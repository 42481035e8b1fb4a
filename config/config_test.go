package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

func write(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "skagerrak.yaml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestExampleLoads(t *testing.T) {
	c, err := Load(write(t, Example()), nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.IMAP.Addr != "imap.example.org:993" || c.SMTP.TLS != "starttls" || c.PollInterval != time.Minute {
		t.Errorf("example config = %+v", c)
	}
}

func TestLayering(t *testing.T) {
	f := write(t, "data_dir: /from/file\nimap:\n  addr: file:993\n")
	t.Setenv("SKAGERRAK_IMAP_ADDR", "env:993")
	t.Setenv("SKAGERRAK_SMTP_PASSWORD", "s3cret")
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.String("data-dir", "", "")
	if err := fs.Parse([]string{"--data-dir", "/from/flag"}); err != nil {
		t.Fatal(err)
	}
	c, err := Load(f, fs)
	if err != nil {
		t.Fatal(err)
	}
	if c.DataDir != "/from/flag" || c.IMAP.Addr != "env:993" || c.SMTP.Password != "s3cret" {
		t.Errorf("layering: %+v", c)
	}
	if c.IMAP.Mailbox != "INBOX" {
		t.Errorf("default mailbox = %q", c.IMAP.Mailbox)
	}
}

func TestBadFilesNameKeyAndFile(t *testing.T) {
	cases := []struct{ body, want string }{
		{"imap:\n  adress: x\n", `unknown key "imap.adress" (did you mean "imap.addr"?)`},
		{"imap:\n  password: hunter2\n", "SKAGERRAK_IMAP_PASSWORD"},
		{"smtp:\n  tls: maybe\n", `"smtp.tls" is "maybe"; valid: none, starttls, tls`},
		{"poll_interval: soon\n", "poll_interval"},
		{"imap: [\n", "not valid YAML"},
		{"smtp:\n  replay_max: big\n", `"smtp.replay_max" is "big": not a size; valid: a size such as 7MB, 500KB or 0`},
	}
	for _, c := range cases {
		f := write(t, c.body)
		_, err := Load(f, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), f) {
			t.Errorf("%q: err = %v, want it to name %q and the file", c.body, err, c.want)
		}
	}
	if _, err := Load("/no/such/file.yaml", nil); err == nil || !strings.Contains(err.Error(), "/no/such/file.yaml") {
		t.Errorf("missing file: %v", err)
	}
}

func TestRequireMailNamesMissingKeys(t *testing.T) {
	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	err = c.RequireMail()
	if err == nil || !strings.Contains(err.Error(), "imap.addr") || !strings.Contains(err.Error(), "host_key") {
		t.Errorf("RequireMail = %v", err)
	}
}

func TestSystemdUnitRunsTheDaemon(t *testing.T) {
	u := SystemdUnit()
	for _, want := range []string{"[Service]", "ExecStart=/usr/local/bin/skagerrak --config /etc/skagerrak/skagerrak.yaml run", "EnvironmentFile=/etc/skagerrak/secrets.env", "Restart=on-failure", "[Install]"} {
		if !strings.Contains(u, want) {
			t.Errorf("the unit lacks %q", want)
		}
	}
}

// A duration without a unit would be decoded as nanoseconds (poll_timeout:
// 120 gave up after 120ns): it is refused, naming the key and the value
// with a unit, from the file and from the environment alike.
func TestDurationWithoutUnitRefused(t *testing.T) {
	f := write(t, "poll_timeout: 120\n")
	_, err := Load(f, nil)
	if err == nil || !strings.Contains(err.Error(), `key "poll_timeout" is 120, a number without a unit`) || !strings.Contains(err.Error(), "write 120s") || !strings.Contains(err.Error(), f) {
		t.Errorf("poll_timeout: 120 in the file: %v", err)
	}
	t.Setenv("SKAGERRAK_POLL_INTERVAL", "30")
	_, err = Load("", nil)
	if err == nil || !strings.Contains(err.Error(), "SKAGERRAK_POLL_INTERVAL") || !strings.Contains(err.Error(), "write 30s") {
		t.Errorf("SKAGERRAK_POLL_INTERVAL=30: %v", err)
	}
	t.Setenv("SKAGERRAK_POLL_INTERVAL", "30s")
	if c, err := Load(write(t, "poll_timeout: 90s\n"), nil); err != nil || c.PollTimeout != 90*time.Second || c.PollInterval != 30*time.Second {
		t.Errorf("durations with units: %+v, %v", c, err)
	}
}

// A username without its password in the environment is named by the
// variable to set, for each login.
func TestRequireSecretsNamesTheVariable(t *testing.T) {
	c, err := Load(write(t, "imap:\n  username: ref\nsmtp:\n  username: sub\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	err = c.RequireSecrets()
	if err == nil || !strings.Contains(err.Error(), "SKAGERRAK_IMAP_PASSWORD (imap.username is ref) and SKAGERRAK_SMTP_PASSWORD (smtp.username is sub) not set") {
		t.Errorf("RequireSecrets: %v", err)
	}
	t.Setenv("SKAGERRAK_IMAP_PASSWORD", "x")
	t.Setenv("SKAGERRAK_SMTP_PASSWORD", "y")
	if c, _ = Load("", nil); c.RequireSecrets() != nil {
		t.Errorf("no usernames, passwords set: %v", c.RequireSecrets())
	}
}

// The keys an unknown key's error lists are those a file may hold: never
// a secret, which the file may not.
func TestUnknownKeyListsNoSecrets(t *testing.T) {
	_, err := Load(write(t, "colour: blue\n"), nil)
	if err == nil || !strings.Contains(err.Error(), "known keys: data_dir, host_key, imap.addr") {
		t.Fatalf("unknown key: %v", err)
	}
	for _, s := range []string{"password", "passphrase"} {
		if strings.Contains(err.Error(), s) {
			t.Errorf("the list of known keys names a secret (%s): %v", s, err)
		}
	}
}

// The mail server configurations: an address outside the domain and a
// mail owner that does not exist are refused, saying what to do; each
// shipped file renders with a host's defaults filled in.
func TestMailServerConfig(t *testing.T) {
	if _, err := MailServerConfig("dovecot", MailServer{Domain: "example.org", MailUser: "root", Addresses: []string{"ref@example.com"}}); err == nil || !strings.Contains(err.Error(), `address "ref@example.com" is not in the domain example.org`) {
		t.Errorf("an address of another domain: %v", err)
	}
	if _, err := MailServerConfig("dovecot", MailServer{Domain: "example.org", MailUser: "no-such-vmail"}); err == nil || !strings.Contains(err.Error(), "useradd --system --user-group") {
		t.Errorf("no such mail owner: %v", err)
	}
	for name := range MailServerNames {
		text, err := MailServerConfig(name, MailServer{Domain: "example.org", MailUser: "root", MailUID: 1})
		if err != nil || !strings.Contains(text, "example.org") || strings.Contains(text, "<no value>") {
			t.Errorf("%s: %v\n%s", name, err, text)
		}
	}
}

// smtp.replay_max reads 7MB, 500KB, 1.5MB or bytes; 0 (and no value that
// parses) attaches no replay; the default is 7 MB.
func TestReplayMaxSizes(t *testing.T) {
	for in, want := range map[string]int64{"7MB": 7_000_000, "500 kb": 500_000, "1.5MB": 1_500_000, "12345": 12345, "0": -1} {
		if got := (SMTP{ReplayMax: in}).ReplayMaxBytes(); got != want {
			t.Errorf("replay_max %q is %d bytes, want %d", in, got, want)
		}
	}
	c, err := Load(write(t, "data_dir: /x\n"), nil)
	if err != nil || c.SMTP.ReplayMaxBytes() != 7_000_000 {
		t.Errorf("the default replay_max: %q (%v)", c.SMTP.ReplayMax, err)
	}
}
