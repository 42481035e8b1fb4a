package receipts

import (
	"fmt"
	"io"
	"strings"

	"skagerrak/adjudicator"
)

// Print prints what checking receipts found; an error when any
// receipt does not match.
func Print(w io.Writer, logPath string, paths []string, k Kept, c adjudicator.ReceiptCheck) error {
	fmt.Fprintf(w, "receipts: %d mails read from %s", k.Read, strings.Join(paths, ", "))
	if k.Skipped > 0 {
		fmt.Fprintf(w, " (%d other files skipped)", k.Skipped)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  %d host-signed receipts of game %s checked (%d of accepted orders, %d of reports)", c.Checked, c.Game, c.Orders, c.Checked-c.Orders)
	if c.OK() && len(k.Bad) == 0 && c.Checked > 0 {
		fmt.Fprint(w, ": the log holds every one")
	}
	fmt.Fprintln(w)
	if c.Other > 0 {
		fmt.Fprintf(w, "  %d receipts of other games not checked\n", c.Other)
	}
	if c.Elsewhere > 0 {
		fmt.Fprintf(w, "  %d receipts of another game named %s, played before this one began or after it ended (their first record is not this log's), not checked: if you played only one game of that name, this log is not its log\n", c.Elsewhere, c.Game)
	}
	for _, x := range c.Concurrent {
		fmt.Fprintf(w, "  TWO GAMES AT ONCE: the host signed receipts of another game named %s (first record %s) while this one was played: it kept two logs for one game\n", c.Game, x)
	}
	if k.Bare > 0 {
		fmt.Fprintf(w, "  %d host-signed mails without a receipt (replies to rejected orders, reminders, notices, mail of builds before receipts)\n", k.Bare)
	}
	if k.Foreign > 0 {
		fmt.Fprintf(w, "  %d other mails (not from a skagerrak host)\n", k.Foreign)
	}
	if len(k.Refused) > 0 {
		fmt.Fprintf(w, "  %d mails refused, not counted: the host's signature on them does not verify\n", len(k.Refused))
		for _, r := range k.Refused {
			fmt.Fprintf(w, "    %s\n", r)
		}
	}
	for _, b := range k.Bad {
		fmt.Fprintf(w, "  BAD RECEIPT (host-signed, unreadable): %s\n", b)
	}
	for _, x := range c.Mismatches {
		fmt.Fprintf(w, "  DOES NOT MATCH: %s, in %s: %s\n", x.What(), x.Mail, x.Why)
	}
	for _, x := range c.Contradictions {
		fmt.Fprintf(w, "  TWO HISTORIES: the host's mails name %s\n", x)
	}
	if c.Departs > 0 {
		fmt.Fprintf(w, "  the log is the history the host showed up to record %d and not from record %d on: it was forked or rewritten between them (%s)\n", c.Agree, c.Departs, c.AtDeparture)
	}
	if n := len(c.Mismatches) + len(k.Bad); n > 0 {
		return fmt.Errorf("verify: %d of %d receipts do not match the log %s", n, c.Checked+len(k.Bad), logPath)
	}
	if len(c.Contradictions) > 0 {
		return fmt.Errorf("verify: the host's mails name %d records with two hashes", len(c.Contradictions))
	}
	if len(c.Concurrent) > 0 {
		return fmt.Errorf("verify: the host's mails are of %d other games named %s played at the same time", len(c.Concurrent), c.Game)
	}
	if c.Checked == 0 {
		return fmt.Errorf("verify: no host-signed receipt of game %s in %s: nothing was checked against the log", c.Game, strings.Join(paths, ", "))
	}
	return nil
}

// CheckFiles reads the host's public key (hostKey) and the player's
// private keys (keyFiles, unlocked with passphrase), reads the saved mail
// in paths, checks the host's signature on each and the receipts against
// the log, and prints what it found (verify --receipts); an error when
// any receipt does not match.
func CheckFiles(w io.Writer, logPath string, paths []string, hostKey string, keyFiles []string, passphrase string) error {
	host, err := ReadHostKey(hostKey)
	if err != nil {
		return err
	}
	players, err := ReadPrivateKeys(keyFiles, passphrase)
	if err != nil {
		return err
	}
	k, c, err := Check(logPath, paths, host, players)
	if err != nil {
		return err
	}
	return Print(w, logPath, paths, k, c)
}
