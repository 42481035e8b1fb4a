package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"

	"skagerrak/adjudicator"
	"skagerrak/engine"
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
  referee: {address: ref@example.org, key: referee.asc}`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			spec, err := f.spec()
			if err != nil {
				return err
			}
			h, c, err := m.host(cmd, false)
			if err != nil {
				return err
			}
			defer h.Close()
			spec.HostFrom, spec.Software = c.SMTP.From, software()
			g, err := h.Create(spec)
			if err != nil {
				return err
			}
			fmt.Fprintf(m.Stdout, "created game %s (%s) in %s\n", g.ID, g.Rules.Title(), filepath.Join(h.Dir(), g.ID))
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
	s := adjudicator.Spec{Game: f.game, Ruleset: f.ruleset, Setup: engine.Setup{Scenario: f.scenario, Options: f.options}, Dice: f.dice, Encrypt: f.encrypt,
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
	key, fp, err := readPublicKey(keyFile)
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
	s.Dice, s.Encrypt = v.GetString("dice"), v.GetBool("encrypt")
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

func (m *Main) statusCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "status [GAME]",
		Short: "Show each game's phase, deadline, who owes orders, and undelivered mail",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := m.config(cmd)
			if err != nil {
				return err
			}
			dirs, err := adjudicator.GameDirs(c.DataDir)
			if err != nil {
				return err
			}
			if len(args) == 1 {
				d := filepath.Join(c.DataDir, args[0])
				if _, err := os.Stat(filepath.Join(d, adjudicator.LogFile)); err != nil {
					return fmt.Errorf("no game %q under %s", args[0], c.DataDir)
				}
				dirs = []string{d}
			}
			if len(dirs) == 0 {
				fmt.Fprintf(m.Stdout, "no games under %s\n", c.DataDir)
			}
			for _, d := range dirs {
				g, err := adjudicator.LoadGame(d)
				if err != nil {
					return err
				}
				m.printStatus(g)
			}
			return nil
		},
	}
}

func (m *Main) printStatus(g *adjudicator.Game) {
	w := m.Stdout
	fmt.Fprintf(w, "%s  %s, %d phases resolved\n", g.ID, g.Rules.Title(), g.Resolved)
	switch {
	case g.Ended != nil:
		fmt.Fprintf(w, "  over: %s\n", g.Ended.Why)
		if g.Ended.Result != nil {
			fmt.Fprintf(w, "  result: %s\n", g.Ended.Result.Summary)
		}
	case g.Opened != nil:
		fmt.Fprintf(w, "  phase %s (%s), deadline %s\n", g.Opened.Phase, g.Opened.Title, g.Opened.Deadline.UTC().Format(time.RFC1123))
		for _, s := range g.Opened.Owes {
			state := "owes orders"
			if _, ok := g.Orders[s]; ok {
				state = "orders in"
			}
			fmt.Fprintf(w, "  %-10s %s", s, state)
			if n := g.Missed[s]; n > 0 {
				fmt.Fprintf(w, " (missed %d in a row)", n)
			}
			fmt.Fprintln(w)
		}
	}
	if g.Paused != nil {
		fmt.Fprintf(w, "  paused by %s: %s\n", g.Paused.By, g.Paused.Why)
	}
	if g.Created.Dice == "manual" {
		fmt.Fprintf(w, "  manual dice in hand: %d\n", len(g.Dice))
	}
	if n := len(g.Outbox); n > 0 {
		fmt.Fprintf(w, "  undelivered mail: %d queued\n", n)
	}
	for _, f := range g.Failed {
		fmt.Fprintf(w, "  delivery failed: %s: %s\n", f.ID, f.Error)
	}
}

func (m *Main) submitCmd() *cobra.Command {
	var side, sig, by string
	var unsigned bool
	c := &cobra.Command{
		Use:   "submit GAME FILE --side SIDE",
		Short: "Submit an order file: signed (cleartext-signed, or with FILE.asc), or --unsigned by the referee",
		Long: `submit records an order file for the open phase, as if it had arrived by
mail. The file is either cleartext-signed (gpg --clearsign) or has a detached
armored signature (FILE.asc beside it, or --sig). A referee entering orders
received on paper uses --unsigned --by NAME; they are recorded as unsigned.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if side == "" {
				return fmt.Errorf("submit: --side is required")
			}
			data, err := os.ReadFile(args[1])
			if err != nil {
				return err
			}
			sigText := ""
			if !unsigned {
				if sig == "" {
					if _, err := os.Stat(args[1] + ".asc"); err == nil {
						sig = args[1] + ".asc"
					}
				}
				if sig != "" {
					b, err := os.ReadFile(sig)
					if err != nil {
						return err
					}
					sigText = string(b)
				}
			} else if by == "" {
				return fmt.Errorf("submit: --unsigned needs --by NAME (who entered the paper orders)")
			}
			h, _, err := m.host(cmd, !unsigned)
			if err != nil {
				return err
			}
			defer h.Close()
			r, err := h.SubmitFile(args[0], engine.Side(strings.ToLower(side)), data, sigText, unsigned, by)
			if err != nil {
				return err
			}
			fmt.Fprintf(m.Stdout, "%s: %s\n", args[1], r.Status)
			if r.Reason != "" {
				fmt.Fprintf(m.Stdout, "  %s\n", r.Reason)
			}
			for _, e := range r.Errors {
				fmt.Fprintf(m.Stdout, "  %s\n", e.Error())
			}
			if r.Status == adjudicator.StatusRejected {
				return &exitError{code: 2, err: fmt.Errorf("orders rejected")}
			}
			return nil
		},
	}
	c.Flags().StringVar(&side, "side", "", "the side the orders are for")
	c.Flags().StringVar(&sig, "sig", "", "armored detached signature (default FILE.asc if it exists)")
	c.Flags().BoolVar(&unsigned, "unsigned", false, "paper orders entered by the referee, recorded as unsigned")
	c.Flags().StringVar(&by, "by", "", "who entered unsigned orders")
	return c
}

func (m *Main) refereeDo(cmd *cobra.Command, game string, c adjudicator.Command) error {
	h, _, err := m.host(cmd, false)
	if err != nil {
		return err
	}
	defer h.Close()
	if err := h.Referee(game, c); err != nil {
		return err
	}
	g, _ := h.Game(game)
	m.printStatus(g)
	return nil
}

func (m *Main) resolveCmd() *cobra.Command {
	var why string
	c := &cobra.Command{
		Use:   "resolve GAME",
		Short: "Resolve the open phase now (missing sides get default orders)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return m.refereeDo(cmd, args[0], adjudicator.Command{Name: "resolve", Why: why})
		},
	}
	c.Flags().StringVar(&why, "why", "resolved by the host operator", "reason, recorded and told to the players")
	return c
}

func (m *Main) diceCmd() *cobra.Command {
	c := &cobra.Command{Use: "dice", Short: "Manual dice"}
	c.AddCommand(&cobra.Command{
		Use:   "add GAME N...",
		Short: "Supply rolls to a manual-dice game; a phase waiting for them resolves",
		Args:  cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			h, _, err := m.host(cmd, false)
			if err != nil {
				return err
			}
			defer h.Close()
			if err := h.Referee(args[0], adjudicator.Command{Name: "dice", Args: args[1:]}); err != nil {
				return err
			}
			wait, err := h.Tick()
			if err != nil {
				return err
			}
			if n := wait[args[0]]; n > 0 {
				fmt.Fprintf(m.Stdout, "the phase needs %d more roll(s)\n", n)
			}
			g, _ := h.Game(args[0])
			m.printStatus(g)
			return nil
		},
	})
	return c
}

func (m *Main) refereeCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "referee GAME COMMAND [ARGS...] WHY...",
		Short: "Referee commands: extend, shorten, deadline, pause, resume, resolve, end, abandon, address, key",
		Long: "Referee (game master) commands given by the host operator. Each is recorded\n" +
			"as an event with who and why, and told to the players.\n\n" + adjudicator.CommandHelp +
			"\nkey SIDE KEYFILE WHY...       replace SIDE's public key (CLI only)\n\n" +
			"The referee may send the same commands by signed mail: an order file with\nSide: referee and one command per line.",
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			game, rest := args[0], args[1:]
			if strings.ToLower(rest[0]) == "key" {
				if len(rest) < 4 {
					return fmt.Errorf("referee key: write referee GAME key SIDE KEYFILE WHY")
				}
				g, err := adjudicator.LoadGame(filepathJoin(m, cmd, game))
				if err != nil {
					return err
				}
				side := engine.Side(strings.ToLower(rest[1]))
				old, ok := g.Player(side)
				if !ok {
					return fmt.Errorf("game %s has no side %q", game, side)
				}
				p, err := player(side, old.Address, rest[2])
				if err != nil {
					return err
				}
				return m.refereeDo(cmd, game, adjudicator.Command{Name: "key", Player: &p, Why: strings.Join(rest[3:], " ")})
			}
			c, err := adjudicator.ParseCommand(strings.Join(rest, " "))
			if err != nil {
				return err
			}
			return m.refereeDo(cmd, game, c)
		},
	}
	return c
}

func filepathJoin(m *Main, cmd *cobra.Command, game string) string {
	c, err := m.config(cmd)
	if err != nil {
		return game
	}
	return filepath.Join(c.DataDir, game)
}

func (m *Main) reportCmd() *cobra.Command {
	var side, phase, mapFile string
	var asJSON bool
	c := &cobra.Command{
		Use:   "report GAME --side SIDE [--phase PHASE]",
		Short: "Print a side's report exactly as that side got it (the latest, or of a phase)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := m.config(cmd)
			if err != nil {
				return err
			}
			path := filepath.Join(cfg.DataDir, args[0], adjudicator.LogFile)
			if _, err := os.Stat(path); err != nil {
				return fmt.Errorf("no game %q under %s", args[0], cfg.DataDir)
			}
			s := engine.Side(strings.ToLower(side))
			ms, err := adjudicator.Mails(adjudicator.LogReader{Path: path}, func(q adjudicator.MailQueued) bool {
				return q.Side == s && (q.Kind == adjudicator.MailReport || q.Kind == adjudicator.MailFinal) && (phase == "" || strings.EqualFold(q.Phase, phase))
			})
			if err != nil {
				return err
			}
			if len(ms) == 0 {
				return fmt.Errorf("game %s has no report for side %q%s", args[0], side, map[bool]string{true: "", false: " in phase " + phase}[phase == ""])
			}
			r := ms[len(ms)-1]
			if mapFile != "" {
				if err := r.Complete(); err != nil {
					return err
				}
			}
			for _, a := range r.Attachments {
				if a.Name == "report.json" && asJSON {
					_, err := m.Stdout.Write(a.Data)
					return err
				}
				if a.Name == "map.png" && mapFile != "" {
					if err := os.WriteFile(mapFile, a.Data, 0o644); err != nil {
						return err
					}
					fmt.Fprintf(m.Stderr, "map written to %s\n", mapFile)
				}
			}
			if asJSON {
				return fmt.Errorf("this report has no JSON copy (only turn reports do)")
			}
			fmt.Fprintf(m.Stdout, "Message-ID: %s\nTo: %s\nSubject: %s\n\n%s", r.ID, r.To, r.Subject, r.Text)
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the report's JSON copy (report.json) instead of its text")
	c.Flags().StringVar(&mapFile, "map", "", "also write the report's map picture (map.png) to this file")
	c.Flags().StringVar(&side, "side", "", "the side whose report to print")
	c.Flags().StringVar(&phase, "phase", "", "the phase the report resolved (default: the latest report)")
	c.MarkFlagRequired("side")
	return c
}
