package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"skagerrak/internal/configcheck"
)

func (m *Main) configCheckCmd() *cobra.Command {
	var connect bool
	c := &cobra.Command{
		Use:   "check [--connect]",
		Short: "Check the configuration: keys, the host key, secrets; with --connect, log in to IMAP and SMTP",
		Long: `config check loads the configuration and checks what poll and run need:
every mail key set, the host key file there and unlocked (with
SKAGERRAK_HOST_KEY_PASSPHRASE if it is protected) and able to sign, the
passwords each login needs present in the environment, the data directory.
With --connect it also logs in to the IMAP server (making the processed and
rejected folders as the daemon would) and to the SMTP server, sending
nothing. Each check prints a line; the exit status is 1 if any failed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := m.config(cmd)
			if err != nil {
				return err
			}
			o := configcheck.Options{Connect: connect, AllowReadableKey: m.allowReadableKey}
			if failed := configcheck.Run(cmd.Context(), m.Stdout, c, o); failed > 0 {
				return fmt.Errorf("config %s: %d problem(s)", c.Where(), failed)
			}
			what := "offline checks"
			if connect {
				what = "logged in to IMAP and SMTP"
			}
			fmt.Fprintf(m.Stdout, "configuration OK (%s; %s)\n", c.Where(), what)
			return nil
		},
	}
	c.Flags().BoolVar(&connect, "connect", false, "also log in to the IMAP and SMTP servers")
	return c
}
