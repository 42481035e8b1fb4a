package config

import (
	"fmt"
	"net/mail"
	"slices"
	"strings"
)

// MailServerList is the names of MailServerNames, sorted, and a line for
// each saying where it goes (for config mailserver's help).
func MailServerList() (names []string, where string) {
	names = slices.Sorted(func(yield func(string) bool) {
		for n := range MailServerNames {
			if !yield(n) {
				return
			}
		}
	})
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "  %-10s %s\n", n, MailServerNames[n])
	}
	return names, b.String()
}

// MailServerFor renders the mail server configuration name for the host c
// configures: the mail domain and the game's address are smtp.from's
// where ms gives none.
func (c *Config) MailServerFor(name string, ms MailServer) (string, error) {
	if ms.Domain == "" && c.SMTP.From != "" {
		if a, err := mail.ParseAddress(c.SMTP.From); err == nil {
			ms.Domain = a.Address[strings.LastIndex(a.Address, "@")+1:]
			if len(ms.Addresses) == 0 {
				ms.Addresses = []string{a.Address}
			}
		}
	}
	if ms.Domain == "" {
		return "", fmt.Errorf("config mailserver: no mail domain: give --domain example.org, or set smtp.from in the configuration: %s", c.Where())
	}
	return MailServerConfig(name, ms)
}
