package config

import (
	"bytes"
	"embed"
	"fmt"
	"os/user"
	"path"
	"sort"
	"strings"
	"text/template"
)

//go:embed mailserver
var mailServerFiles embed.FS

// MailServer is what the shipped mail server configurations are filled in
// with: a host's names and paths (skagerrak config mailserver), or a
// test's (the interop suite starts its servers from the same files). The
// zero value of a field takes its default (WithDefaults).
type MailServer struct {
	// Domain is the mail domain, example.org.
	Domain string
	// Hostname is the machine's name, the one its TLS certificate names.
	Hostname string
	// Addresses have a mailbox each; the first is the game's (the host's
	// imap.username and smtp.from).
	Addresses []string
	// MailUser and MailGroup own the mail; MailUID is MailUser's uid.
	MailUser, MailGroup string
	MailUID             int
	// MailDir holds one directory per local part, its Maildir inside.
	MailDir string
	// UsersFile is Dovecot's passwd-file of the addresses' passwords.
	UsersFile string
	// TLSCert and TLSKey are the PEM files of the certificate and its key.
	TLSCert, TLSKey string
	// Listen is where Dovecot's IMAP listens; IMAPPort and IMAPSPort its
	// ports ("0": not at all).
	Listen, IMAPPort, IMAPSPort string
	// SMTPListen is where OpenSMTPD listens (an address or an
	// interface; "": 0.0.0.0); SMTPPort its port ("": 25).
	SMTPListen, SMTPPort string
	// BaseDir, StateDir and LogPath move Dovecot's runtime directory,
	// state and log elsewhere ("": Debian's /run/dovecot,
	// /var/lib/dovecot and syslog).
	BaseDir, StateDir, LogPath string
	// QueueTTL is how long OpenSMTPD tries a message before it bounces it
	// ("": its default, 4 days). Tests shorten it.
	QueueTTL string
	// Postfix makes Dovecot listen for LMTP in Postfix's chroot too.
	Postfix bool
	// PostfixQueue is Postfix's queue_directory, its chroot, where
	// Dovecot's second LMTP socket is (private/dovecot-lmtp; "": Debian's
	// /var/spool/postfix).
	PostfixQueue string
}

// MailServerNames are the configurations `skagerrak config mailserver`
// prints, each with where it goes on a Debian host.
var MailServerNames = map[string]string{
	"dovecot":   "/etc/dovecot/dovecot.conf",
	"opensmtpd": "/etc/smtpd.conf",
	"postfix":   "/etc/postfix/main.cf",
}

var mailServerTemplates = map[string]string{"dovecot": "dovecot.conf", "opensmtpd": "smtpd.conf", "postfix": "postfix-main.cf"}

// WithDefaults fills in what a Debian host uses where a field is empty;
// the mail's owner must exist (MailUID is looked up).
func (ms MailServer) WithDefaults() (MailServer, error) {
	def := func(s *string, d string) {
		if *s == "" {
			*s = d
		}
	}
	if ms.Domain == "" {
		return ms, fmt.Errorf("mailserver: no mail domain (--domain example.org)")
	}
	def(&ms.Hostname, "mail."+ms.Domain)
	if len(ms.Addresses) == 0 {
		ms.Addresses = []string{"referee@" + ms.Domain}
	}
	def(&ms.MailUser, "vmail")
	def(&ms.MailGroup, ms.MailUser)
	def(&ms.MailDir, "/var/mail/skagerrak")
	def(&ms.UsersFile, "/etc/dovecot/skagerrak-users")
	def(&ms.TLSCert, "/etc/ssl/certs/ssl-cert-snakeoil.pem")
	def(&ms.TLSKey, "/etc/ssl/private/ssl-cert-snakeoil.key")
	def(&ms.Listen, "127.0.0.1")
	def(&ms.IMAPPort, "143")
	def(&ms.IMAPSPort, "993")
	def(&ms.SMTPListen, "0.0.0.0")
	def(&ms.PostfixQueue, "/var/spool/postfix")
	if ms.MailUID == 0 {
		u, err := user.Lookup(ms.MailUser)
		if err != nil {
			return ms, fmt.Errorf("mailserver: the mail's owner %s: %v (make it first: useradd --system --user-group --home-dir %s --shell /usr/sbin/nologin %s)", ms.MailUser, err, ms.MailDir, ms.MailUser)
		}
		fmt.Sscan(u.Uid, &ms.MailUID)
	}
	for _, a := range ms.Addresses {
		if i := strings.LastIndex(a, "@"); i < 1 || a[i+1:] != ms.Domain {
			return ms, fmt.Errorf("mailserver: address %q is not in the domain %s", a, ms.Domain)
		}
	}
	return ms, nil
}

// LMTPSocket is where Dovecot takes mail over LMTP.
func (ms MailServer) LMTPSocket() string {
	if ms.BaseDir == "" {
		return "/run/dovecot/lmtp"
	}
	return path.Join(ms.BaseDir, "lmtp")
}

// MailServerConfig renders one shipped configuration ("dovecot",
// "opensmtpd", "postfix") for ms, its defaults filled in.
func MailServerConfig(name string, ms MailServer) (string, error) {
	file, ok := mailServerTemplates[name]
	if !ok {
		var names []string
		for n := range mailServerTemplates {
			names = append(names, n)
		}
		sort.Strings(names)
		return "", fmt.Errorf("mailserver: no configuration %q; there are: %s", name, strings.Join(names, ", "))
	}
	ms, err := ms.WithDefaults()
	if err != nil {
		return "", err
	}
	text, err := mailServerFiles.ReadFile("mailserver/" + file)
	if err != nil {
		return "", err
	}
	t, err := template.New(file).Option("missingkey=error").Parse(string(text))
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, ms); err != nil {
		return "", err
	}
	return b.String(), nil
}
