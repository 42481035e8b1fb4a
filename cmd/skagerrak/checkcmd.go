package main

import (
	"fmt"
	"io"
	"os"
	"time"

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"
	"github.com/spf13/cobra"

	"skagerrak/config"
	"skagerrak/mail/compose"
	"skagerrak/mail/verify"
)

func (m *Main) checkCmd() *cobra.Command {
	var keys []string
	var at, hostKey string
	c := &cobra.Command{
		Use:   "check MESSAGE.eml --key KEY.asc [--key ...] [--at TIME]",
		Short: "Say what the intake would conclude about one raw message (why was my order refused?)",
		Long: `check runs the intake's signature verification on one raw message, without
any game: the signed form found, the signer's fingerprint and the signed
bytes' digest, or the named reason for rejection (signed text the daemon
refuses with a reply, such as a control character, is named so too). Exit
status 0 only when it verifies. MESSAGE.eml may be - for standard input. --at judges key validity
at another time (RFC 3339), as the daemon does at the recorded receipt time.
--host-key opens mail encrypted to the host first, as the daemon does.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(keys) == 0 {
				return fmt.Errorf("check: give the signer's public key with --key KEY.asc")
			}
			var raw []byte
			var err error
			if args[0] == "-" {
				raw, err = io.ReadAll(io.LimitReader(os.Stdin, 64<<20))
			} else {
				raw, err = os.ReadFile(args[0])
			}
			if err != nil {
				return err
			}
			var rs []io.Reader
			for _, k := range keys {
				f, err := os.Open(k)
				if err != nil {
					return err
				}
				defer f.Close()
				rs = append(rs, f)
			}
			el, err := verify.ReadKeys(rs...)
			if err != nil {
				return err
			}
			when := time.Now().UTC()
			if m.Clock != nil {
				when = m.Clock.Now()
			}
			if at != "" {
				when, err = time.Parse(time.RFC3339, at)
				if err != nil {
					return fmt.Errorf("check: --at %q is not an RFC 3339 time such as 2026-11-29T12:00:00Z", at)
				}
			}
			if hostKey != "" {
				if raw, err = m.decryptForCheck(raw, hostKey, when); err != nil {
					return err
				}
			}
			report, verr := verify.Check(raw, el, when)
			fmt.Fprint(m.Stdout, report)
			if verr != nil {
				return &exitError{code: 1, err: fmt.Errorf("%s does not verify", args[0])}
			}
			return nil
		},
	}
	c.Flags().StringArrayVar(&keys, "key", nil, "armored public key file (repeatable)")
	c.Flags().StringVar(&at, "at", "", "judge validity at this time (RFC 3339); default now")
	c.Flags().StringVar(&hostKey, "host-key", "", "the host's armored private key, to open mail encrypted to the host")
	return c
}

// decryptForCheck opens a message encrypted to the host as the daemon
// does, saying so, and returns the message to verify; a message it cannot
// open is reported and is an exit status 1.
func (m *Main) decryptForCheck(raw []byte, path string, when time.Time) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	key, err := compose.ReadPrivateKeyWithPassphrase(f, []byte(os.Getenv(config.EnvName("host_key_passphrase"))))
	if err != nil {
		return nil, fmt.Errorf("check: --host-key %s: %w", path, err)
	}
	d, err := verify.Decrypt(raw, openpgp.EntityList{key}, when, verify.Limits{})
	if err != nil {
		fmt.Fprint(m.Stdout, verify.FormatReport(nil, err, when))
		return nil, &exitError{code: 1, err: fmt.Errorf("the host cannot open the message")}
	}
	if d == nil {
		return raw, nil
	}
	fmt.Fprintf(m.Stdout, "%-12s %s\n", "decrypted:", d.Shape)
	return d.Message, nil
}
