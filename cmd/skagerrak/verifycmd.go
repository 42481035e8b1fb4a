package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"skagerrak/adjudicator"
	"skagerrak/config"
	"skagerrak/internal/buildinfo"
	"skagerrak/internal/gamelog"
	"skagerrak/internal/receipts"
	"skagerrak/internal/wiring"
)

func (m *Main) verifyCmd() *cobra.Command {
	var noSigs bool
	var mailPaths, keys []string
	var hostKey string
	c := &cobra.Command{
		Use:   "verify PATH [--host-key HOST.asc --receipts MAIL...]",
		Short: "Replay a game's log from nothing and check every record, signature, result and roll",
		Long: `verify replays a game's event log from nothing. PATH is a game directory or
its events.jsonl, or a data directory (a backup of data_dir, say): then
every game in it is verified, and each one that fails is named. It checks the hash chain, every order signature against the
stored signed bytes at the recorded receipt time, every validation, every
recorded state and mail digest, and, once the dice secret is known (published
at the game's end, or in the game directory), every die roll.

--receipts checks the log against the mail a player kept: every acceptance
reply names the record of the orders it accepted and every report the last
record of the log when it was written, inside the host's signature. MAIL is
any number of .eml files, Maildir folders, mbox files or folders holding
them (give several after --receipts, or --receipts more than once). Each
mail's host signature is checked with --host-key, the host's public key as
you got it from the host (never from the log, which the host writes); a mail
whose signature does not verify is refused and not counted. Then the log
must hold every receipt's record, at its seq, with its hash: a receipt that
does not match is named with what the log holds instead (orders dropped or
altered, a fork). --key decrypts encrypted reports (your private key; a
passphrase comes from SKAGERRAK_KEY_PASSPHRASE).

Exit status 0 when everything holds; otherwise 1, naming the first bad seq,
or every receipt the log does not bear out.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 && len(mailPaths) == 0 {
				return fmt.Errorf("verify takes one log (%d given); saved mail goes after --receipts", len(args))
			}
			if len(mailPaths) > 0 {
				mailPaths = append(mailPaths, args[1:]...)
				if hostKey == "" {
					return fmt.Errorf("--receipts needs --host-key HOST.asc: the host's public key, to check the host's signature on each mail")
				}
			}
			var v adjudicator.Verifier = wiring.Verifier{}
			if noSigs {
				v = nil
			}
			if dirs := adjudicator.DataDirGames(args[0]); dirs != nil && len(mailPaths) == 0 {
				return adjudicator.VerifyAll(cmd.Context(), m.Stdout, dirs, v, buildinfo.Software())
			}
			rep, err := adjudicator.VerifyPathContext(cmd.Context(), args[0], v)
			if err != nil {
				return err
			}
			rep.Print(m.Stdout, buildinfo.Software())
			if len(mailPaths) == 0 {
				return nil
			}
			return receipts.CheckFiles(m.Stdout, rep.Path, mailPaths, hostKey, keys, os.Getenv("SKAGERRAK_KEY_PASSPHRASE"))
		},
	}
	c.Flags().BoolVar(&noSigs, "no-signatures", false, "skip checking the order signatures again")
	c.Flags().StringSliceVar(&mailPaths, "receipts", nil, "saved mail to check the log against: .eml files, Maildirs, mboxes, folders of them")
	c.Flags().StringVar(&hostKey, "host-key", "", "the host's armored public key, to check its signature on each saved mail")
	c.Flags().StringSliceVar(&keys, "key", nil, "your armored private key, to decrypt encrypted reports")
	return c
}

func (m *Main) logCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "log GAME",
		Short: "Print a game's events (GAME: a game of the store; PATH: a game directory or its events.jsonl)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			lr, done, err := m.logOf(cmd, args[0])
			if err != nil {
				return err
			}
			defer done()
			return gamelog.Print(m.Stdout, lr, asJSON)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the records as they are stored")
	return c
}

// logOf reads the records of a log file, a game directory, or (an
// argument that is no file) a game of the configured store.
func (m *Main) logOf(cmd *cobra.Command, arg string) (gamelog.Reader, func(), error) {
	return gamelog.Open(cmd.Context(), arg, func() (*config.Config, error) { return m.config(cmd) })
}

// storedLog is the records of a game of the configured store, read
// without writing; done closes what it opened.
func (m *Main) storedLog(cmd *cobra.Command, game string) (lr gamelog.Reader, done func(), err error) {
	c, err := m.config(cmd)
	if err != nil {
		return nil, nil, err
	}
	return gamelog.Stored(cmd.Context(), c, game)
}
