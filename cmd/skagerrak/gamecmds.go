package main

import (
	"errors"
	"time"

	"github.com/spf13/cobra"

	"skagerrak/adjudicator"
	"skagerrak/internal/operator"
	"skagerrak/internal/status"
)

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
			return status.Games(cmd.Context(), m.Stdout, c, args, m.now())
		},
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
			s := operator.Submission{Game: args[0], File: args[1], Side: side, Sig: sig, Unsigned: unsigned, By: by}
			data, sigText, err := s.Read()
			if err != nil {
				return err
			}
			h, _, err := m.host(cmd, !unsigned, false, onlyGame(args[0]))
			if err != nil {
				return err
			}
			defer h.Close()
			if err := s.Submit(m.Stdout, h, data, sigText); errors.Is(err, operator.ErrRejected) {
				return &exitError{code: 2, err: err}
			} else if err != nil {
				return err
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

// refereeDo carries out a referee command on game (in whichever store it
// is kept) and prints its status.
func (m *Main) refereeDo(cmd *cobra.Command, game string, build operator.Build) error {
	h, _, err := m.host(cmd, false, false, onlyGame(game))
	if err != nil {
		return err
	}
	defer h.Close()
	return operator.Referee(m.Stdout, h, game, build, m.now)
}

func (m *Main) resolveCmd() *cobra.Command {
	var why string
	c := &cobra.Command{
		Use:   "resolve GAME",
		Short: "Resolve the open phase now (missing sides get default orders)",
		Long: "Resolve the open phase now; the sides that owe orders get default orders.\n" +
			"A manual-dice game whose dice are not supplied yet waits for them: the phase is\n" +
			"made due now (its deadline moved, recorded with the reason) and status says\n" +
			"which dice to roll; `skagerrak dice add GAME N...` then resolves it.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return m.refereeDo(cmd, args[0], operator.Do(adjudicator.Command{Name: "resolve", Why: why}))
		},
	}
	c.Flags().StringVar(&why, "why", "resolved by the host operator", "reason, recorded and told to the players")
	return c
}

func (m *Main) diceCmd() *cobra.Command {
	c := &cobra.Command{Use: "dice", Short: "Manual dice: supply the rolls a resolution waits for"}
	c.AddCommand(&cobra.Command{
		Use:   "add GAME N...",
		Short: "Supply rolls to a manual-dice game's resolution waiting for them",
		Long: "Supply rolls to a manual-dice game. Each value is the face of the die its roll\n" +
			"is for, in order. No die is made up: a resolution stops at the first die it does\n" +
			"not have, and `skagerrak status GAME` names it (\"T02 needs 1 d6: a d6 for\n" +
			"gunnery (8.23) (more may follow once it is in)\"). Several values may be given at\n" +
			"once, each checked against the die the phase asks for next; a ten-sided die's 0\n" +
			"face is given as 0. A value that is no face of its die, or more values than the\n" +
			"phase takes, is refused and nothing is added. The phase resolves as soon as it\n" +
			"has its dice.",
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			h, _, err := m.host(cmd, false, false, onlyGame(args[0]))
			if err != nil {
				return err
			}
			defer h.Close()
			return operator.AddDice(m.Stdout, h, args[0], args[1:], m.now)
		},
	})
	var why string
	clear := &cobra.Command{
		Use:   "clear GAME",
		Short: "Drop a manual-dice game's dice in hand (a value no roll can take)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return m.refereeDo(cmd, args[0], operator.Do(adjudicator.Command{Name: "dice", Args: []string{"clear"}, Why: why}))
		},
	}
	clear.Flags().StringVar(&why, "why", "", "reason, recorded (required)")
	c.AddCommand(clear)
	return c
}

// now is the host clock's time.
func (m *Main) now() time.Time {
	if m.Clock != nil {
		return m.Clock.Now()
	}
	return time.Now().UTC()
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
			build, err := operator.ParseReferee(args[0], args[1:])
			if err != nil {
				return err
			}
			return m.refereeDo(cmd, args[0], build)
		},
	}
	return c
}
