package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
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

type newFlags struct {
	file, game, ruleset, scenario, dice, referee string
	options, sides                               []string
	deadline, reminder, grace, maxPause          time.Duration
	flagAfter, pauseLimit                        int
	encrypt                                      bool
}

func (m *Main) newCmd() *cobra.Command {
	var f newFlags
	c := &cobra.Command{
		Use:   "new",
		Short: "Create a game, from flags or from a game file",
		Long: `new creates a game under the data directory: its event log (GameCreated with
the dice-secret commitment), its dice secret (owner-only, never in the log
until the game ends), and each side's first report and order form, queued for
the daemon to send.

From flags:
  skagerrak new --game weser-1 --ruleset kriegsmarine \
    --side german=hitler@example.org,german.asc \
    --side allied=churchill@example.org,allied.asc \
    --referee ref@example.org,referee.asc --deadline 48h --reminder 12h

From a game file (YAML; key files relative to it):
  game: weser-1
  ruleset: kriegsmarine
  options: []
  dice: seeded            # or manual
  deadline: 48h
  reminder: 12h
  grace: 0s
  flag_after: 2           # flag a side to the referee after 2 missed phases
  pause_limit: 3
  max_pause: 168h
  sides:
    german: {address: hitler@example.org, key: german.asc}
    allied: {address: churchill@example.org, key: allied.asc}
  referee: {address: ref@example.org, key: referee.asc}

Each side needs a player, and each player a key of its own, except where the
rules let one player hold two sides: Kampen om Norge with two players (rule
1.4) gives the norwegian and the allied side the same address and key, and
that player sends each side's orders in its own file:
  skagerrak new --game kampen-2 --ruleset kampen \
    --side german=falkenhorst@example.org,german.asc \
    --side norwegian=ruge@example.org,ruge.asc \
    --side allied=ruge@example.org,ruge.asc --referee ref@example.org,referee.asc`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			spec, err := f.spec()
			if err != nil {
				return err
			}
			h, c, err := m.host(cmd, false, true, noGames)
			if err != nil {
				return err
			}
			defer h.Close()
			spec.HostFrom, spec.Software = c.SMTP.From, software()
			g, err := h.Create(spec)
			if err != nil {
				return err
			}
			where := h.Dir()
			if _, ok := h.Store().(*adjudicator.FileStore); ok {
				where = filepath.Join(where, g.ID)
			}
			fmt.Fprintf(m.Stdout, "created game %s (%s) in %s\n", g.ID, g.Rules.Title(), where)
			fmt.Fprintf(m.Stdout, "phase %s open until %s; %d reports queued for the daemon to send\n", g.Opened.Phase, g.Opened.Deadline.UTC().Format(time.RFC1123), len(g.Outbox))
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.file, "file", "", "game file (YAML)")
	fl.StringVar(&f.game, "game", "", "game id (lower-case letters, digits, - and _)")
	fl.StringVar(&f.ruleset, "ruleset", "", "ruleset (see skagerrak rules)")
	fl.StringVar(&f.scenario, "scenario", "", "scenario id (default: the ruleset's first)")
	fl.StringSliceVar(&f.options, "option", nil, "optional rule to enable (repeatable)")
	fl.StringArrayVar(&f.sides, "side", nil, "SIDE=ADDRESS,KEYFILE (one per side)")
	fl.StringVar(&f.referee, "referee", "", "ADDRESS,KEYFILE of the referee (game master)")
	fl.StringVar(&f.dice, "dice", "seeded", "seeded (committed secret) or manual (rolls supplied with dice add)")
	fl.DurationVar(&f.deadline, "deadline", 48*time.Hour, "how long each phase stays open")
	fl.DurationVar(&f.reminder, "reminder", 12*time.Hour, "remind sides that owe orders this long before the deadline (0: never)")
	fl.DurationVar(&f.grace, "grace", 0, "grace period after the deadline")
	fl.IntVar(&f.flagAfter, "flag-after", 2, "flag a side to the referee after this many missed phases in a row (0: never)")
	fl.IntVar(&f.pauseLimit, "pause-limit", 3, "how many times the game may be paused")
	fl.DurationVar(&f.maxPause, "max-pause", 7*24*time.Hour, "longest pause before the game resumes by itself (0: no limit)")
	fl.BoolVar(&f.encrypt, "encrypt", false, "encrypt reports to each side's key")
	return c
}

func (f *newFlags) spec() (adjudicator.Spec, error) {
	if f.file != "" {
		return gameFile(f.file)
	}
	if f.game == "" || f.ruleset == "" {
		return adjudicator.Spec{}, fmt.Errorf("new: give --game and --ruleset (and a --side for each side), or --file")
	}
	if _, err := engine.Lookup(f.ruleset); err != nil {
		return adjudicator.Spec{}, fmt.Errorf("new: %w", err)
	}
	s := adjudicator.Spec{Game: f.game, Ruleset: f.ruleset, Setup: engine.Setup{Scenario: f.scenario, Options: f.options}, Dice: f.dice, Encrypt: f.encrypt, GameIDs: true,
		Timing: adjudicator.Timing{Deadline: adjudicator.Duration(f.deadline), Reminder: adjudicator.Duration(f.reminder), Grace: adjudicator.Duration(f.grace),
			FlagAfter: f.flagAfter, PauseLimit: f.pauseLimit, MaxPause: adjudicator.Duration(f.maxPause)}}
	for _, sd := range f.sides {
		name, rest, ok := strings.Cut(sd, "=")
		addr, key, ok2 := strings.Cut(rest, ",")
		if !ok || !ok2 {
			return s, fmt.Errorf("--side %q: write SIDE=ADDRESS,KEYFILE", sd)
		}
		p, err := player(engine.Side(strings.ToLower(name)), addr, key)
		if err != nil {
			return s, err
		}
		s.Players = append(s.Players, p)
	}
	if f.referee != "" {
		addr, key, ok := strings.Cut(f.referee, ",")
		if !ok {
			return s, fmt.Errorf("--referee %q: write ADDRESS,KEYFILE", f.referee)
		}
		p, err := player(adjudicator.Referee, addr, key)
		if err != nil {
			return s, err
		}
		s.Referee = &p
	}
	return s, nil
}

func player(side engine.Side, addr, keyFile string) (adjudicator.Player, error) {
	key, fp, err := verify.ReadPublicKeyFile(keyFile)
	if err != nil {
		return adjudicator.Player{}, fmt.Errorf("side %s: %w", side, err)
	}
	return adjudicator.Player{Side: side, Address: strings.TrimSpace(addr), Key: key, Fingerprint: fp}, nil
}

// gameFile reads a game file; unknown keys are errors naming the file.
func gameFile(path string) (adjudicator.Spec, error) {
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
	dir := filepath.Dir(path)
	rel := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
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
	var err error
	s.Game, s.Ruleset = v.GetString("game"), v.GetString("ruleset")
	s.Setup = engine.Setup{Scenario: v.GetString("scenario"), Options: v.GetStringSlice("options")}
	s.Dice, s.Encrypt, s.GameIDs = v.GetString("dice"), v.GetBool("encrypt"), true
	if s.Timing.Deadline, err = dur("deadline", 48*time.Hour); err != nil {
		return s, err
	}
	if s.Timing.Reminder, err = dur("reminder", 12*time.Hour); err != nil {
		return s, err
	}
	if s.Timing.Grace, err = dur("grace", 0); err != nil {
		return s, err
	}
	if s.Timing.MaxPause, err = dur("max_pause", 7*24*time.Hour); err != nil {
		return s, err
	}
	s.Timing.FlagAfter, s.Timing.PauseLimit = 2, 3
	if v.IsSet("flag_after") {
		s.Timing.FlagAfter = v.GetInt("flag_after")
	}
	if v.IsSet("pause_limit") {
		s.Timing.PauseLimit = v.GetInt("pause_limit")
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
				return s, fmt.Errorf("game file %s: unknown key %q", path, "sides."+n+"."+k)
			}
		}
		p, err := player(engine.Side(n), v.GetString("sides."+n+".address"), rel(v.GetString("sides."+n+".key")))
		if err != nil {
			return s, fmt.Errorf("game file %s: %w", path, err)
		}
		s.Players = append(s.Players, p)
	}
	if v.IsSet("referee.key") {
		p, err := player(adjudicator.Referee, v.GetString("referee.address"), rel(v.GetString("referee.key")))
		if err != nil {
			return s, fmt.Errorf("game file %s: %w", path, err)
		}
		s.Referee = &p
	}
	return s, nil
}
