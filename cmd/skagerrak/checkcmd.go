package main

import (
	"github.com/spf13/cobra"

	"skagerrak/internal/mailcheck"
)

func (m *Main) checkCmd() *cobra.Command {
	var keys []string
	var at, hostKey string
	c := &cobra.Command{
		Use:   "check MESSAGE.eml [--key KEY.asc ...] [--at TIME]",
		Short: "Say what the daemon would conclude about one raw message (why was my order refused?)",
		Long: `check runs one raw message through the daemon's intake against the games
as they stand (the configured data directory or store), recording nothing:
the signature (against the keys the games register), the game and side it
goes to, every order error, and the reply the daemon would send, word for
word. Exit status 0 only when the daemon would accept it (or it is already
recorded). A daemon may run meanwhile: its games are only read.

With no games at hand (no data directory), check verifies the signature
only, against --key, and says so: the orders are not checked then. The
signed form found, the signer's fingerprint and the signed bytes' digest,
or the named reason for rejection (signed text the daemon refuses with a
reply, such as a control character, is named so too).

MESSAGE.eml may be - for standard input. --at judges at another time (RFC
3339): key validity, as the daemon does at the recorded receipt time, and
the open phase's deadline. --host-key opens mail encrypted to the host
first, as the daemon does.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			raw, err := mailcheck.ReadMessage(args[0])
			if err != nil {
				return err
			}
			when, err := mailcheck.At(at, m.now())
			if err != nil {
				return err
			}
			if hostKey != "" {
				if raw, err = mailcheck.Decrypt(m.Stdout, raw, hostKey, when); err != nil {
					return err
				}
			}
			c, err := m.config(cmd)
			if err != nil {
				return err
			}
			return mailcheck.Check(cmd.Context(), m.Stdout, c, raw, args[0], mailcheck.Options{When: when, Keys: keys, Logger: m.logger()})
		},
	}
	c.Flags().StringArrayVar(&keys, "key", nil, "armored public key file, for a check of the signature alone when no games are at hand (repeatable)")
	c.Flags().StringVar(&at, "at", "", "judge at this time (RFC 3339); default now")
	c.Flags().StringVar(&hostKey, "host-key", "", "the host's armored private key, to open mail encrypted to the host")
	return c
}
