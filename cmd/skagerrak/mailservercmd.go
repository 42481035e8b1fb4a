package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"skagerrak/config"
)

// mailServerCmd prints a shipped mail server configuration with the
// host's names filled in.
func (m *Main) mailServerCmd() *cobra.Command {
	var ms config.MailServer
	names, where := config.MailServerList()
	c := &cobra.Command{
		Use:   "mailserver dovecot|opensmtpd|postfix",
		Short: "Print a working mail server configuration for this host (Dovecot, OpenSMTPD or Postfix)",
		Long: `config mailserver prints one of the mail server configurations of README's
"A mail server" (the ones the interop suite runs), with this host's names
filled in: the mail domain and the game's address (from smtp.from of the
configuration, or --domain and --address), the machine's name, the mail's
owner and where the mail, the users and the TLS certificate are. Each goes
where Debian looks for it:

` + where,
		Args:      cobra.ExactArgs(1),
		ValidArgs: names,
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, ok := config.MailServerNames[args[0]]; !ok {
				return fmt.Errorf("config mailserver: no configuration %q; there are: %s", args[0], strings.Join(names, ", "))
			}
			c, err := m.config(cmd)
			if err != nil {
				return err
			}
			text, err := c.MailServerFor(args[0], ms)
			if err != nil {
				return err
			}
			_, err = io.WriteString(m.Stdout, text)
			return err
		},
	}
	f := c.Flags()
	f.StringVar(&ms.Domain, "domain", "", "the mail domain (default: smtp.from's)")
	f.StringSliceVar(&ms.Addresses, "address", nil, "an address with a mailbox, repeatable (default: smtp.from, else referee@DOMAIN)")
	f.StringVar(&ms.Hostname, "hostname", "", "the machine's name, as its TLS certificate names it (default mail.DOMAIN)")
	f.StringVar(&ms.MailUser, "mail-user", "vmail", "the system user that owns the mail")
	f.StringVar(&ms.MailDir, "mail-dir", "/var/mail/skagerrak", "where the mailboxes are, one directory per local part")
	f.StringVar(&ms.UsersFile, "users", "/etc/dovecot/skagerrak-users", "Dovecot's file of users and password hashes")
	f.StringVar(&ms.TLSCert, "cert", "/etc/ssl/certs/ssl-cert-snakeoil.pem", "the TLS certificate (PEM)")
	f.StringVar(&ms.TLSKey, "key", "/etc/ssl/private/ssl-cert-snakeoil.key", "the TLS certificate's private key (PEM)")
	f.BoolVar(&ms.Postfix, "postfix", false, "dovecot: also take mail from Postfix (an LMTP socket in its chroot)")
	return c
}
