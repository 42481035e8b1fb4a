package main

import (
	"time"

	"github.com/spf13/cobra"

	"skagerrak/internal/buildinfo"
	"skagerrak/internal/gamespec"
)

func (m *Main) newCmd() *cobra.Command {
	var f gamespec.Flags
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
			spec, err := f.Spec()
			if err != nil {
				return err
			}
			h, c, err := m.host(cmd, false, true, noGames)
			if err != nil {
				return err
			}
			defer h.Close()
			spec.HostFrom, spec.Software = c.SMTP.From, buildinfo.Software()
			return gamespec.Create(m.Stdout, h, spec)
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.File, "file", "", "game file (YAML)")
	fl.StringVar(&f.Game, "game", "", "game id (lower-case letters, digits, - and _)")
	fl.StringVar(&f.Ruleset, "ruleset", "", "ruleset (see skagerrak rules)")
	fl.StringVar(&f.Scenario, "scenario", "", "scenario id (default: the ruleset's first)")
	fl.StringSliceVar(&f.Options, "option", nil, "optional rule to enable (repeatable)")
	fl.StringArrayVar(&f.Sides, "side", nil, "SIDE=ADDRESS,KEYFILE (one per side)")
	fl.StringVar(&f.Referee, "referee", "", "ADDRESS,KEYFILE of the referee (game master)")
	fl.StringVar(&f.Dice, "dice", "seeded", "seeded (committed secret) or manual (rolls supplied with dice add)")
	fl.DurationVar(&f.Deadline, "deadline", 48*time.Hour, "how long each phase stays open")
	fl.DurationVar(&f.Reminder, "reminder", 12*time.Hour, "remind sides that owe orders this long before the deadline (0: never)")
	fl.DurationVar(&f.Grace, "grace", 0, "grace period after the deadline")
	fl.IntVar(&f.FlagAfter, "flag-after", 2, "flag a side to the referee after this many missed phases in a row (0: never)")
	fl.IntVar(&f.PauseLimit, "pause-limit", 3, "how many times the game may be paused")
	fl.DurationVar(&f.MaxPause, "max-pause", 7*24*time.Hour, "longest pause before the game resumes by itself (0: no limit)")
	fl.BoolVar(&f.Encrypt, "encrypt", false, "encrypt reports to each side's key")
	return c
}
