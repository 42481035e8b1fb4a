package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/spf13/cobra"

	"skagerrak/adjudicator"
	"skagerrak/config"
	"skagerrak/events"
	"skagerrak/internal/buildinfo"
	"skagerrak/internal/ruleslist"
	"skagerrak/internal/wiring"
)

// Main is the program with its wiring, so that end-to-end tests drive the
// same code as the binary.
type Main struct {
	Stdout, Stderr io.Writer
	// Clock is the host clock; nil means the wall clock.
	Clock adjudicator.Clock

	configFile       string
	dataDir          string
	verbose          bool
	allowReadableKey bool
	// warnOnly logs warnings and errors only (poll --once under cron):
	// what a pass did is its summary's to say.
	warnOnly bool
}

// exitError carries an exit status other than 1.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// lockedHint follows an error about a game log another process holds:
// with the file store a running daemon holds the log of every game it has.
const lockedHint = `skagerrak: a running daemon (skagerrak run, or a poll) holds the log of every game it has
  while it runs: stop it (systemctl stop skagerrak), run this again, and start it again;
  the referee can also mail referee commands, signed (skagerrak referee --help)`

// NewMain returns a Main writing to the process's standard streams.
func NewMain() *Main { return &Main{Stdout: os.Stdout, Stderr: os.Stderr} }

// Run runs one command line and returns the exit status.
func (m *Main) Run(ctx context.Context, args []string) int {
	root := m.root()
	root.SetArgs(args)
	root.SetOut(m.Stdout)
	root.SetErr(m.Stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	fmt.Fprintln(m.Stderr, "skagerrak:", err)
	if errors.Is(err, events.ErrLocked) {
		fmt.Fprintln(m.Stderr, lockedHint)
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return 1
}

func (m *Main) root() *cobra.Command {
	root := &cobra.Command{
		Use:   "skagerrak",
		Short: "Play-by-email adjudicator for wargames of the 1940 Norwegian campaign",
		Long: `skagerrak referees board wargames of the 1940 Norwegian campaign by email.
Players mail OpenPGP-signed order files; skagerrak checks them, records them
in an append-only, hash-chained event log per game, resolves each phase by the
rules, and mails each side only its own report. Anyone holding a game's log
can check every result with "skagerrak verify".

Start with "skagerrak demo" to watch a whole game played by mail.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	pf := root.PersistentFlags()
	pf.StringVar(&m.configFile, "config", os.Getenv("SKAGERRAK_CONFIG"), "configuration file (YAML); also SKAGERRAK_CONFIG")
	pf.StringVar(&m.dataDir, "data-dir", "", "directory holding the games (overrides data_dir)")
	pf.BoolVarP(&m.verbose, "verbose", "v", false, "log more")
	pf.BoolVar(&m.allowReadableKey, wiring.AllowReadableKeyFlag, false, "load a host_key file that group or others can read (refused otherwise)")
	root.AddCommand(
		m.versionCmd(), m.configCmd(), m.verifyCmd(), m.logCmd(), m.rulesCmd(), m.guideCmd(),
		m.newCmd(), m.statusCmd(), m.submitCmd(), m.resolveCmd(), m.reportCmd(), m.diceCmd(), m.refereeCmd(),
		m.checkCmd(), m.pollCmd(), m.runCmd(), m.demoCmd(), m.storeCmd(), m.exportCmd(), m.importCmd(), m.replayCmd(),
	)
	return root
}

// config loads the configuration with the global flags applied.
func (m *Main) config(cmd *cobra.Command) (*config.Config, error) {
	c, err := config.Load(m.configFile, cmd.Flags())
	if err != nil {
		return nil, err
	}
	return c, nil
}

func (m *Main) logger() *slog.Logger {
	level := slog.LevelInfo
	if m.warnOnly {
		level = slog.LevelWarn
	}
	if m.verbose {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(m.Stderr, &slog.HandlerOptions{Level: level}))
}

// host opens the games under the configured data directory; create says
// whether a missing directory is made (new, poll, run) or an error; sel,
// if not nil, picks the games opened (onlyGame, noGames).
func (m *Main) host(cmd *cobra.Command, withVerifier, create bool, sel func(string) bool) (*adjudicator.Host, *config.Config, error) {
	c, err := m.config(cmd)
	if err != nil {
		return nil, nil, err
	}
	h, err := wiring.OpenHost(cmd.Context(), c, m.hostOptions(withVerifier, create, sel))
	if err != nil {
		return nil, nil, err
	}
	return h, c, nil
}

// hostOptions are how the commands open the host.
func (m *Main) hostOptions(intake, create bool, sel func(string) bool) wiring.HostOptions {
	return wiring.HostOptions{Clock: m.Clock, Logger: m.logger(), Intake: intake, Create: create, Select: sel}
}

// onlyGame makes a host open one game: a command about that game leaves
// the others alone (and does not replay them).
func onlyGame(id string) func(string) bool { return func(g string) bool { return g == id } }

// noGames makes a host open none of the games: skagerrak new only adds one.
func noGames(string) bool { return false }

func (m *Main) versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version and the rulesets it plays",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintf(m.Stdout, "skagerrak %s\n", buildinfo.Software())
			ruleslist.List(m.Stdout, "  ")
			return nil
		},
	}
}

func (m *Main) configCmd() *cobra.Command {
	c := &cobra.Command{Use: "config", Short: "Configuration helpers"}
	c.AddCommand(&cobra.Command{
		Use:   "example",
		Short: "Print a commented example configuration file",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := io.WriteString(m.Stdout, config.Example())
			return err
		},
	}, &cobra.Command{
		Use:   "systemd",
		Short: "Print a systemd unit that runs the daemon (save it as /etc/systemd/system/skagerrak.service)",
		Long: `config systemd prints a systemd unit that runs the daemon as user
skagerrak. With --config (or SKAGERRAK_CONFIG) the unit runs with that
file, and may write in its data_dir (the unit makes the rest of the
system read-only); without, it names /etc/skagerrak/skagerrak.yaml and
/var/lib/skagerrak.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := m.config(cmd)
			if err != nil {
				return err
			}
			unit, err := config.SystemdUnitFor(c)
			if err != nil {
				return err
			}
			_, err = io.WriteString(m.Stdout, unit)
			return err
		},
	}, m.configCheckCmd(), m.mailServerCmd())
	return c
}
