// Package config loads skagerrak's configuration: one YAML file, overridden
// by SKAGERRAK_* environment variables, overridden by command-line flags
// (viper does the layering). Secrets — the IMAP and SMTP passwords and the
// host key's passphrase — are read from the environment only; a secret
// written into the file is an error, so it never sits in a file that may be
// copied around.
package config

import (
	_ "embed"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// EnvPrefix is the prefix of the environment variables that override keys:
// imap.addr is SKAGERRAK_IMAP_ADDR.
const EnvPrefix = "SKAGERRAK"

// Config is the whole configuration of a host.
type Config struct {
	// DataDir holds one directory per game.
	DataDir string `mapstructure:"data_dir"`
	// PollInterval is how often `run` polls when the server has no IDLE.
	PollInterval time.Duration `mapstructure:"poll_interval"`
	// PollTimeout bounds one `poll --once` pass: it gives up then and
	// exits non-zero, so that cron jobs never pile up.
	PollTimeout time.Duration `mapstructure:"poll_timeout"`
	// HostKey is the armored private key file that signs outgoing mail.
	HostKey string `mapstructure:"host_key"`
	// HostKeyPassphrase unlocks HostKey; environment only.
	HostKeyPassphrase string `mapstructure:"host_key_passphrase"`
	// Store is where the games are kept: "file" (one directory per game
	// under DataDir) or a PostgreSQL URL (postgres://user@host/db).
	Store string `mapstructure:"store"`
	// StorePassword is the database password; environment only.
	StorePassword string `mapstructure:"store_password"`
	IMAP          IMAP   `mapstructure:"imap"`
	SMTP          SMTP   `mapstructure:"smtp"`
	// Metrics is where `run` serves its metrics and health check.
	Metrics Metrics `mapstructure:"metrics"`
	// File is the configuration file that was read, "" if none.
	File string `mapstructure:"-"`
}

// IMAP is where orders arrive.
type IMAP struct {
	Addr     string `mapstructure:"addr"`
	Username string `mapstructure:"username"`
	// Password comes from SKAGERRAK_IMAP_PASSWORD only.
	Password string `mapstructure:"password"`
	// TLS is none, starttls or tls.
	TLS     string `mapstructure:"tls"`
	Mailbox string `mapstructure:"mailbox"`
	// Processed and Rejected name the folders messages go to; empty means
	// "skagerrak" and "processed" or "rejected" joined by the server's
	// hierarchy delimiter (skagerrak/processed, skagerrak.processed).
	Processed string `mapstructure:"processed"`
	Rejected  string `mapstructure:"rejected"`
}

// SMTP is where replies and reports leave.
type SMTP struct {
	Addr     string `mapstructure:"addr"`
	Username string `mapstructure:"username"`
	// Password comes from SKAGERRAK_SMTP_PASSWORD only.
	Password string `mapstructure:"password"`
	TLS      string `mapstructure:"tls"`
	From     string `mapstructure:"from"`
	// Connections bounds the SMTP connections open at once.
	Connections int `mapstructure:"connections"`
	// PerConnection is how many messages one connection carries before it
	// is closed and a new one opened.
	PerConnection int `mapstructure:"messages_per_connection"`
	// ReplayMax is the largest replay page a final report attaches, a
	// size such as 7MB or 500KB; 0 attaches none. A larger page is left
	// out, and a note says how to make it from the log.
	ReplayMax string `mapstructure:"replay_max"`
}

// Metrics configures the daemon's metrics endpoint (off unless Addr is
// set).
type Metrics struct {
	// Addr is host:port, or a port alone for the loopback address.
	Addr string `mapstructure:"addr"`
}

// Defaults are the values of keys that neither the file, the environment
// nor a flag sets.
var defaults = map[string]any{
	"data_dir":                     "./games",
	"poll_interval":                "1m",
	"poll_timeout":                 "2m",
	"imap.tls":                     "tls",
	"imap.mailbox":                 "INBOX",
	"smtp.tls":                     "starttls",
	"store":                        "file",
	"smtp.connections":             4,
	"smtp.messages_per_connection": 100,
	"smtp.replay_max":              "7MB",
}

// keys are every key the file may hold.
var keys = []string{
	"data_dir", "poll_interval", "poll_timeout", "host_key", "host_key_passphrase",
	"imap.addr", "imap.username", "imap.password", "imap.tls", "imap.mailbox", "imap.processed", "imap.rejected",
	"smtp.addr", "smtp.username", "smtp.password", "smtp.tls", "smtp.from",
	"smtp.connections", "smtp.messages_per_connection", "smtp.replay_max", "store", "store_password",
	"metrics.addr",
}

// secrets may be set only through the environment.
var secrets = map[string]bool{"imap.password": true, "smtp.password": true, "host_key_passphrase": true, "store_password": true}

//go:embed example.yaml
var example string

// Example returns a commented example configuration file.
func Example() string { return example }

//go:embed skagerrak.service
var systemdUnit string

// SystemdUnit returns a systemd unit that runs the daemon as user
// skagerrak, with its games in /var/lib/skagerrak and its configuration in
// /etc/skagerrak.
func SystemdUnit() string { return systemdUnit }

// SystemdUnitFor returns the systemd unit for the configuration c: run
// with c's file, and with c's data directory among the paths it may write
// (ProtectSystem=strict makes every other one read-only; a relative one is
// under the unit's WorkingDirectory). A configuration from no file gives
// SystemdUnit as it is.
func SystemdUnitFor(c *Config) (string, error) {
	const home, file = "/var/lib/skagerrak", "/etc/skagerrak/skagerrak.yaml"
	if c.File == "" {
		return systemdUnit, nil
	}
	cfg, err := filepath.Abs(c.File)
	if err != nil {
		return "", err
	}
	data := c.DataDir
	if !filepath.IsAbs(data) {
		data = filepath.Join(home, data)
	}
	data = filepath.Clean(data)
	if strings.ContainsAny(cfg+data, " \t\n\"'") {
		return "", fmt.Errorf("config %s: the unit cannot name %s or %s: a path with blanks or quotes", c.File, cfg, data)
	}
	unit := strings.Replace(systemdUnit, "--config "+file, "--config "+cfg, 1)
	if data != home && !strings.HasPrefix(data, home+"/") {
		unit = strings.Replace(unit, "ReadWritePaths="+home, "ReadWritePaths="+home+" "+data, 1)
		if strings.HasPrefix(data, "/home/") || strings.HasPrefix(data, "/root/") {
			// ProtectHome=yes hides homes whatever ReadWritePaths says.
			unit = strings.Replace(unit, "ProtectHome=yes", "ProtectHome=read-only", 1)
		}
	}
	return unit, nil
}

// Keys returns every configuration key, sorted.
func Keys() []string {
	out := append([]string(nil), keys...)
	sort.Strings(out)
	return out
}

// FileKeys returns the keys a configuration file may hold, sorted: every
// key but the secrets, which come from the environment only.
func FileKeys() []string {
	var out []string
	for _, k := range Keys() {
		if !secrets[k] {
			out = append(out, k)
		}
	}
	return out
}

// durations are the keys whose values are durations.
var durations = []string{"poll_interval", "poll_timeout"}

// EnvName returns the environment variable that sets key.
func EnvName(key string) string {
	return EnvPrefix + "_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

// Load reads the configuration. file may be "" (no file: defaults, then the
// environment, then flags); a named file must exist. flags, if not nil, are
// bound by their names: a flag "data-dir" sets "data_dir".
func Load(file string, flags *pflag.FlagSet) (*Config, error) {
	v := viper.New()
	for k, d := range defaults {
		v.SetDefault(k, d)
	}
	for _, k := range keys {
		if err := v.BindEnv(k, EnvName(k)); err != nil {
			return nil, fmt.Errorf("config: %w", err)
		}
	}
	if file != "" {
		if err := checkFile(file); err != nil {
			return nil, err
		}
		v.SetConfigFile(file)
		v.SetConfigType("yaml")
		if err := v.ReadInConfig(); err != nil {
			return nil, fmt.Errorf("config %s: %v", file, err)
		}
	}
	if flags != nil {
		for _, k := range keys {
			if f := flags.Lookup(strings.ReplaceAll(strings.ReplaceAll(k, "_", "-"), ".", "-")); f != nil {
				if err := v.BindPFlag(k, f); err != nil {
					return nil, fmt.Errorf("config: %w", err)
				}
			}
		}
	}
	if err := checkDurations(v, file); err != nil {
		return nil, err
	}
	c := &Config{File: file}
	if err := v.Unmarshal(c); err != nil {
		return nil, fmt.Errorf("config %s: %v", orDefaults(file), err)
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// checkDurations refuses a duration given as a bare number: decoded, 120
// would be 120 nanoseconds. The error names the key, where it came from and
// the value with a unit.
func checkDurations(v *viper.Viper, file string) error {
	for _, k := range durations {
		raw := strings.TrimSpace(fmt.Sprint(v.Get(k)))
		if _, err := strconv.ParseFloat(raw, 64); err != nil {
			continue // has a unit, or is not a number at all (Validate says)
		}
		where := fmt.Sprintf("config %s: key %q", orDefaults(file), k)
		if os.Getenv(EnvName(k)) != "" {
			where = fmt.Sprintf("config: %s (key %q)", EnvName(k), k)
		}
		return fmt.Errorf("%s is %s, a number without a unit; write %ss for seconds (or use m, h: 90s, 2m)", where, raw, raw)
	}
	return nil
}

// checkFile reads the file on its own, so that unknown keys (typos) and
// secrets written into it are errors naming the key and the file.
func checkFile(file string) error {
	if _, err := os.Stat(file); err != nil {
		return fmt.Errorf("config %s: %v", file, err)
	}
	raw := viper.New()
	raw.SetConfigFile(file)
	raw.SetConfigType("yaml")
	if err := raw.ReadInConfig(); err != nil {
		return fmt.Errorf("config %s: not valid YAML: %v", file, err)
	}
	known := map[string]bool{}
	for _, k := range keys {
		known[k] = true
	}
	for _, k := range raw.AllKeys() {
		if secrets[k] {
			return fmt.Errorf("config %s: key %q is a secret and may only come from the environment variable %s", file, k, EnvName(k))
		}
		if !known[k] {
			msg := fmt.Sprintf("config %s: unknown key %q", file, k)
			if s := suggest(k); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			return fmt.Errorf("%s; known keys: %s", msg, strings.Join(FileKeys(), ", "))
		}
	}
	return nil
}

// Validate checks values that have a fixed set of choices or a shape.
func (c *Config) Validate() error {
	where := orDefaults(c.File)
	if c.DataDir == "" {
		return fmt.Errorf("config %s: key \"data_dir\" is empty; it names the directory that holds the games", where)
	}
	if c.PollInterval <= 0 {
		return fmt.Errorf("config %s: key \"poll_interval\" must be a positive duration such as 30s or 5m", where)
	}
	if c.PollTimeout <= 0 {
		return fmt.Errorf("config %s: key \"poll_timeout\" must be a positive duration such as 90s or 2m", where)
	}
	for _, t := range []struct{ key, val string }{{"imap.tls", c.IMAP.TLS}, {"smtp.tls", c.SMTP.TLS}} {
		switch t.val {
		case "none", "starttls", "tls":
		default:
			return fmt.Errorf("config %s: key %q is %q; valid: none, starttls, tls", where, t.key, t.val)
		}
	}
	if c.SMTP.Connections < 1 || c.SMTP.PerConnection < 1 {
		return fmt.Errorf("config %s: keys \"smtp.connections\" and \"smtp.messages_per_connection\" must be at least 1 (defaults 4 and 100)", where)
	}
	if _, err := ParseSize(c.SMTP.ReplayMax); err != nil {
		return fmt.Errorf("config %s: key \"smtp.replay_max\" is %q: %v; valid: a size such as 7MB, 500KB or 0 (attach no replay)", where, c.SMTP.ReplayMax, err)
	}
	if err := c.validMetrics(where); err != nil {
		return err
	}
	return c.validStore(where)
}

// validMetrics checks metrics.addr: empty, a port, or host:port.
func (c *Config) validMetrics(where string) error {
	a := c.Metrics.Addr
	if a == "" {
		return nil
	}
	if !strings.Contains(a, ":") {
		a = ":" + a
	}
	_, port, err := net.SplitHostPort(a)
	if n, perr := strconv.Atoi(port); err != nil || perr != nil || n < 0 || n > 65535 {
		return fmt.Errorf("config %s: key \"metrics.addr\" is %q; valid: a port (9464, on the loopback address) or host:port such as 127.0.0.1:9464", where, c.Metrics.Addr)
	}
	return nil
}

// validStore checks the store key: "file", or a PostgreSQL URL without a
// password in it.
func (c *Config) validStore(where string) error {
	if c.Store == "file" {
		return nil
	}
	u, err := url.Parse(c.Store)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return fmt.Errorf("config %s: key \"store\" is %q; valid: file, or a PostgreSQL URL such as postgres://skagerrak@db.example.org/skagerrak", where, c.Store)
	}
	if _, ok := u.User.Password(); ok || u.Query().Has("password") {
		return fmt.Errorf("config %s: key \"store\" holds a password; give the URL without it and the password in %s", where, EnvName("store_password"))
	}
	return nil
}

// ParseSize reads a size in bytes: a whole or decimal number with an
// optional unit, B, KB or MB (powers of 1000), such as 7MB or 500KB.
func ParseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	mult := 1.0
	for _, u := range []struct {
		suffix string
		mult   float64
	}{{"MB", 1e6}, {"KB", 1e3}, {"B", 1}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || f < 0 || f*mult > 1e12 {
		return 0, fmt.Errorf("not a size")
	}
	return int64(f * mult), nil
}

// ReplayMaxBytes is ReplayMax in bytes, -1 for none (0, or a size that
// does not parse, which Validate refuses).
func (s SMTP) ReplayMaxBytes() int64 {
	n, err := ParseSize(s.ReplayMax)
	if err != nil || n == 0 {
		return -1
	}
	return n
}

// IsFileStore reports whether the games are kept in files under DataDir.
func (c *Config) IsFileStore() bool { return c.Store == "file" }

// RequireMail checks that the keys the mail commands need are set, naming
// each missing one.
func (c *Config) RequireMail() error {
	var missing []string
	for _, kv := range []struct{ key, val string }{
		{"imap.addr", c.IMAP.Addr}, {"imap.username", c.IMAP.Username},
		{"smtp.addr", c.SMTP.Addr}, {"smtp.from", c.SMTP.From}, {"host_key", c.HostKey},
	} {
		if kv.val == "" {
			missing = append(missing, kv.key)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("config %s: missing key(s) %s (set them in the file or as %s)", orDefaults(c.File), strings.Join(missing, ", "), EnvName(missing[0]))
	}
	return nil
}

// RequireSecrets checks that each login configured with a user name has
// its password in the environment, naming the variable that is not set: a
// cron line that failed to source its secrets must say so, not leave the
// server to answer that the login failed.
func (c *Config) RequireSecrets() error {
	var missing []string
	for _, l := range []struct{ key, user, pw string }{
		{"imap", c.IMAP.Username, c.IMAP.Password}, {"smtp", c.SMTP.Username, c.SMTP.Password},
	} {
		if l.user != "" && l.pw == "" {
			missing = append(missing, fmt.Sprintf("%s (%s.username is %s)", EnvName(l.key+".password"), l.key, l.user))
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("config %s: %s not set in the environment; passwords come from the environment only (under cron or systemd, from /etc/skagerrak/secrets.env: see README, Hosting a game)",
		orDefaults(c.File), strings.Join(missing, " and "))
}

func orDefaults(file string) string {
	if file == "" {
		return "(no file; defaults and environment)"
	}
	return file
}

// suggest returns the known key nearest to k, if it is close.
func suggest(k string) string {
	best, bestD := "", 5
	for _, c := range keys {
		if d := editDistance(k, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Where names where the configuration came from, for error messages: the
// file, or that there is none.
func (c *Config) Where() string { return orDefaults(c.File) }
