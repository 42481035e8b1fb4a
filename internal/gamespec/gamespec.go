// Package gamespec is what skagerrak new creates: a game given by flags
// (Flags) or by a game file (ReadFile), each side's player with the
// public key read from its key file (Player), created and said where
// (Create).
package gamespec

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/viper"

	"skagerrak/adjudicator"
	"skagerrak/engine"
	"skagerrak/mail/verify"
)

// gameFileKeys are the keys a game file may hold.
var gameFileKeys = map[string]bool{
	"game": true, "ruleset": true, "scenario": true, "options": true, "dice": true, "encrypt": true,
	"deadline": true, "reminder": true, "grace": true, "flag_after": true, "pause_limit": true, "max_pause": true,
	"referee.address": true, "referee.key": true,
}

// Flags are skagerrak new's flags: a game file, or the game given in full.
type Flags struct {
	File, Game, Ruleset, Scenario, Dice, Referee string
	Options, Sides                               []string
	Deadline, Reminder, Grace, MaxPause          time.Duration
	FlagAfter, PauseLimit                        int
	Encrypt                                      bool
}

// Spec is the game the flags describe, read from the game file if one is
// given; each side's key file is read, and an error names what to write.
func (f *Flags) Spec() (adjudicator.Spec, error) {
	if f.File != "" {
		return ReadFile(f.File)
	}
	if f.Game == "" || f.Ruleset == "" {
		return adjudicator.Spec{}, fmt.Errorf("new: give --game and --ruleset (and a --side for each side), or --file")
	}
	if _, err := engine.Lookup(f.Ruleset); err != nil {
		return adjudicator.Spec{}, fmt.Errorf("new: %w", err)
	}
	s := adjudicator.Spec{Game: f.Game, Ruleset: f.Ruleset, Setup: engine.Setup{Scenario: f.Scenario, Options: f.Options}, Dice: f.Dice, Encrypt: f.Encrypt, GameIDs: true,
		Timing: adjudicator.Timing{Deadline: adjudicator.Duration(f.Deadline), Reminder: adjudicator.Duration(f.Reminder), Grace: adjudicator.Duration(f.Grace),
			FlagAfter: f.FlagAfter, PauseLimit: f.PauseLimit, MaxPause: adjudicator.Duration(f.MaxPause)}}
	for _, sd := range f.Sides {
		name, rest, ok := strings.Cut(sd, "=")
		addr, key, ok2 := strings.Cut(rest, ",")
		if !ok || !ok2 {
			return s, fmt.Errorf("--side %q: write SIDE=ADDRESS,KEYFILE", sd)
		}
		p, err := Player(engine.Side(strings.ToLower(name)), addr, key)
		if err != nil {
			return s, err
		}
		s.Players = append(s.Players, p)
	}
	if f.Referee != "" {
		addr, key, ok := strings.Cut(f.Referee, ",")
		if !ok {
			return s, fmt.Errorf("--referee %q: write ADDRESS,KEYFILE", f.Referee)
		}
		p, err := Player(adjudicator.Referee, addr, key)
		if err != nil {
			return s, err
		}
		s.Referee = &p
	}
	return s, nil
}

// Create creates the game s in h and says to w where it is, and until
// when its first phase is open.
func Create(w io.Writer, h *adjudicator.Host, s adjudicator.Spec) error {
	g, err := h.Create(s)
	if err != nil {
		return err
	}
	where := h.Dir()
	if _, ok := h.Store().(*adjudicator.FileStore); ok {
		where = filepath.Join(where, g.ID)
	}
	fmt.Fprintf(w, "created game %s (%s) in %s\n", g.ID, g.Rules.Title(), where)
	fmt.Fprintf(w, "phase %s open until %s; %d reports queued for the daemon to send\n", g.Opened.Phase, g.Opened.Deadline.UTC().Format(time.RFC1123), len(g.Outbox))
	return nil
}

// Player is a side's player: its address, and the public key read from
// keyFile; an error names the side.
func Player(side engine.Side, addr, keyFile string) (adjudicator.Player, error) {
	key, fp, err := verify.ReadPublicKeyFile(keyFile)
	if err != nil {
		return adjudicator.Player{}, fmt.Errorf("side %s: %w", side, err)
	}
	return adjudicator.Player{Side: side, Address: strings.TrimSpace(addr), Key: key, Fingerprint: fp}, nil
}

// ReadFile reads a game file (YAML; key files relative to it); unknown
// keys are errors naming the file.
func ReadFile(path string) (adjudicator.Spec, error) {
	var s adjudicator.Spec
	v := viper.New()
	v.SetConfigFile(path)
	v.SetConfigType("yaml")
	if err := v.ReadInConfig(); err != nil {
		return s, fmt.Errorf("game file %s: %v", path, err)
	}
	for _, k := range v.AllKeys() {
		if !gameFileKeys[k] && !strings.HasPrefix(k, "sides.") {
			return s, fmt.Errorf("game file %s: unknown key %q", path, k)
		}
	}
	var err error
	s.Game, s.Ruleset = v.GetString("game"), v.GetString("ruleset")
	s.Setup = engine.Setup{Scenario: v.GetString("scenario"), Options: v.GetStringSlice("options")}
	s.Dice, s.Encrypt, s.GameIDs = v.GetString("dice"), v.GetBool("encrypt"), true
	if s.Timing, err = fileTiming(v, path); err != nil {
		return s, err
	}
	if err := filePlayers(v, path, &s); err != nil {
		return s, fmt.Errorf("game file %s: %w", path, err)
	}
	return s, nil
}

// fileTiming reads a game file's timing, new's defaults where it gives
// none.
func fileTiming(v *viper.Viper, path string) (adjudicator.Timing, error) {
	var t adjudicator.Timing
	var err error
	dur := func(k string, def time.Duration) (adjudicator.Duration, error) {
		if !v.IsSet(k) {
			return adjudicator.Duration(def), nil
		}
		d, err := time.ParseDuration(v.GetString(k))
		if err != nil {
			return 0, fmt.Errorf("game file %s: key %q: %q is not a duration such as 48h", path, k, v.GetString(k))
		}
		return adjudicator.Duration(d), nil
	}
	if t.Deadline, err = dur("deadline", 48*time.Hour); err != nil {
		return t, err
	}
	if t.Reminder, err = dur("reminder", 12*time.Hour); err != nil {
		return t, err
	}
	if t.Grace, err = dur("grace", 0); err != nil {
		return t, err
	}
	if t.MaxPause, err = dur("max_pause", 7*24*time.Hour); err != nil {
		return t, err
	}
	t.FlagAfter, t.PauseLimit = 2, 3
	if v.IsSet("flag_after") {
		t.FlagAfter = v.GetInt("flag_after")
	}
	if v.IsSet("pause_limit") {
		t.PauseLimit = v.GetInt("pause_limit")
	}
	return t, nil
}

// filePlayers reads a game file's sides, sorted, and its referee, their
// key files relative to the game file.
func filePlayers(v *viper.Viper, path string, s *adjudicator.Spec) error {
	rel := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(filepath.Dir(path), p)
	}
	sides := v.GetStringMap("sides")
	names := make([]string, 0, len(sides))
	for n := range sides {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		for _, k := range v.Sub("sides." + n).AllKeys() {
			if k != "address" && k != "key" {
				return fmt.Errorf("unknown key %q", "sides."+n+"."+k)
			}
		}
		p, err := Player(engine.Side(n), v.GetString("sides."+n+".address"), rel(v.GetString("sides."+n+".key")))
		if err != nil {
			return err
		}
		s.Players = append(s.Players, p)
	}
	if v.IsSet("referee.key") {
		p, err := Player(adjudicator.Referee, v.GetString("referee.address"), rel(v.GetString("referee.key")))
		if err != nil {
			return err
		}
		s.Referee = &p
	}
	return nil
}
