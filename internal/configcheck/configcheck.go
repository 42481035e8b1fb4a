// Package configcheck checks a host's configuration as skagerrak config
// check does: what poll and run need (every mail key, the host key
// unlocked and able to sign, the passwords in the environment, the data
// directory), and with Connect a login to the IMAP and SMTP servers. Each
// check prints one line: ok, skip or FAIL.
package configcheck

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"time"

	"skagerrak/adjudicator"
	"skagerrak/config"
	"skagerrak/internal/wiring"
	"skagerrak/mail/compose"
	"skagerrak/mail/imapbox"
	"skagerrak/mail/smtpout"
)

// Options say what to check beyond the configuration itself.
type Options struct {
	// Connect logs in to the IMAP and SMTP servers (config check --connect).
	Connect bool
	// AllowReadableKey loads a host key others may read (see
	// wiring.LoadHostKey).
	AllowReadableKey bool
}

// Run checks c, printing a line per check to w, and returns how many
// checks failed. The logins are given up after c.PollTimeout.
func Run(ctx context.Context, w io.Writer, c *config.Config, o Options) int {
	ck := &checker{w: w, allowReadableKey: o.AllowReadableKey}
	checkConfig(ck, c)
	if o.Connect {
		ctx, cancel := context.WithTimeout(ctx, c.PollTimeout)
		defer cancel()
		checkConnect(ctx, ck, c)
	}
	return ck.failed
}

// checker prints one line per check and counts the failures.
type checker struct {
	w      io.Writer
	failed int
	// allowReadableKey is --allow-readable-host-key (see wiring.LoadHostKey).
	allowReadableKey bool
}

func (ck *checker) ok(format string, args ...any) {
	fmt.Fprintf(ck.w, "ok    %s\n", fmt.Sprintf(format, args...))
}

// skip says a check was not made, for a failure already counted.
func (ck *checker) skip(format string, args ...any) {
	fmt.Fprintf(ck.w, "skip  %s\n", fmt.Sprintf(format, args...))
}

func (ck *checker) fail(format string, args ...any) {
	ck.failed++
	fmt.Fprintf(ck.w, "FAIL  %s\n", fmt.Sprintf(format, args...))
}

// checkConfig runs the checks that need no server.
func checkConfig(ck *checker, c *config.Config) {
	checkDataDir(ck, c.DataDir)
	if err := c.RequireMail(); err != nil {
		ck.fail("%v", err)
	} else {
		ck.ok("imap.addr %s, smtp.addr %s, smtp.from %s", c.IMAP.Addr, c.SMTP.Addr, c.SMTP.From)
	}
	if c.SMTP.From != "" {
		if _, err := mail.ParseAddress(c.SMTP.From); err != nil {
			ck.fail("smtp.from %q is not a mail address: %v", c.SMTP.From, err)
		}
	}
	secret := func(login, user, pw, env string) {
		switch {
		case user == "":
		case pw == "":
			ck.fail("%s.username is %s, but %s is not set (passwords come from the environment only)", login, user, env)
		default:
			ck.ok("%s password for %s is in %s", login, user, env)
		}
	}
	if n := c.SMTP.ReplayMaxBytes(); n > 0 {
		ck.ok("smtp.replay_max %s: a final report attaches the game's replay page up to %.1f MB (base64 makes the mail a third larger); a larger one is left out, the report saying how to make it", c.SMTP.ReplayMax, float64(n)/1e6)
	} else {
		ck.ok("smtp.replay_max %s: final reports attach no replay page; they say how to make it from the log", c.SMTP.ReplayMax)
	}
	secret("imap", c.IMAP.Username, c.IMAP.Password, config.EnvName("imap.password"))
	secret("smtp", c.SMTP.Username, c.SMTP.Password, config.EnvName("smtp.password"))
	checkHostKey(ck, c)
}

// checkDataDir checks that the data directory is there (or can be made)
// and that this user may write in it, and says where a relative one is.
func checkDataDir(ck *checker, dir string) {
	name := dir
	if !filepath.IsAbs(dir) {
		abs, _ := filepath.Abs(dir)
		name = fmt.Sprintf("%s (%s from here; relative to the working directory, which systemd and cron set otherwise: give it in full)", dir, abs)
	}
	probe := dir
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		probe = filepath.Dir(dir)
	case err != nil:
		ck.fail("data_dir %s: %v", name, err)
		return
	case !st.IsDir():
		ck.fail("data_dir %s: not a directory", name)
		return
	}
	f, err := os.CreateTemp(probe, ".skagerrak-check-")
	if err != nil {
		ck.fail("data_dir %s: this user (uid %d) cannot write there: %v (run config check as the daemon's user)", name, os.Getuid(), err)
		return
	}
	f.Close()
	os.Remove(f.Name())
	if probe != dir {
		ck.ok("data_dir %s: not there yet (skagerrak new makes it)", name)
		return
	}
	dirs, _ := adjudicator.GameDirs(dir)
	ck.ok("data_dir %s: %d game(s)", name, len(dirs))
}

// checkHostKey opens and unlocks the host key and makes a signature with it.
func checkHostKey(ck *checker, c *config.Config) {
	if c.HostKey == "" {
		return // RequireMail named it
	}
	key, err := wiring.LoadHostKey(c.HostKey, c.HostKeyPassphrase, ck.allowReadableKey)
	if errors.Is(err, fs.ErrNotExist) {
		ck.fail("%v (make one with gpg and export it: see README, Hosting a game)", err)
		return
	}
	if err != nil {
		ck.fail("%v", err)
		return
	}
	now := time.Now()
	from := c.SMTP.From
	if from == "" {
		from = "host@skagerrak.invalid"
	}
	probe := compose.Message{From: from, To: from, Subject: "config check", MessageID: "<config-check@skagerrak.invalid>", Date: now, Text: "check"}
	if _, err := compose.Sign(probe, key, now); err != nil {
		ck.fail("host_key %s cannot sign: %v", c.HostKey, err)
		return
	}
	decrypts := ", decrypts (players may encrypt orders to it)"
	if _, ok := key.EncryptionKey(now, nil); !ok {
		decrypts = "; no encryption subkey, so players cannot encrypt orders to the host (add one: gpg --quick-add-key FINGERPRINT cv25519 encr never)"
	}
	ck.ok("host_key %s: %s, unlocked, signs%s", c.HostKey, compose.FormatFingerprint(compose.Fingerprint(key)), decrypts)
}

// checkConnect logs in to both servers.
func checkConnect(ctx context.Context, ck *checker, c *config.Config) {
	if c.IMAP.Addr != "" && c.IMAP.Username != "" && c.IMAP.Password == "" {
		ck.skip("imap %s: no login without %s (above)", c.IMAP.Addr, config.EnvName("imap.password"))
	} else if c.IMAP.Addr != "" {
		dir, err := os.MkdirTemp("", "skagerrak-check-")
		if err != nil {
			ck.fail("imap: %v", err)
		} else {
			defer os.RemoveAll(dir)
			box, err := imapbox.Open(ctx, imapbox.Config{Addr: c.IMAP.Addr, Username: c.IMAP.Username, Password: c.IMAP.Password, TLS: c.IMAP.TLS,
				Mailbox: c.IMAP.Mailbox, Processed: c.IMAP.Processed, Rejected: c.IMAP.Rejected, StateDir: dir, MaxAttempts: 1})
			var fe *imapbox.FolderError
			switch {
			case errors.As(err, &fe):
				ck.fail("imap: key imap.%s: %v", fe.Role, err)
			case err != nil:
				ck.fail("imap %s: %v", c.IMAP.Addr, err)
			default:
				ck.ok("imap %s: logged in as %s; mailbox %s, folders %s and %s", c.IMAP.Addr, c.IMAP.Username, orDefault(c.IMAP.Mailbox, "INBOX"), box.Processed(), box.Rejected())
				box.Close()
			}
		}
	}
	if c.SMTP.Addr != "" && c.SMTP.Username != "" && c.SMTP.Password == "" {
		ck.skip("smtp %s: no login without %s (above)", c.SMTP.Addr, config.EnvName("smtp.password"))
	} else if c.SMTP.Addr != "" {
		s, err := smtpout.New(smtpout.Config{Addr: c.SMTP.Addr, Username: c.SMTP.Username, Password: c.SMTP.Password, TLS: c.SMTP.TLS, From: c.SMTP.From})
		if err == nil {
			err = s.Check(ctx)
		}
		if err != nil {
			ck.fail("smtp %s: %v", c.SMTP.Addr, err)
		} else {
			who := "without login"
			if c.SMTP.Username != "" {
				who = "logged in as " + c.SMTP.Username
			}
			ck.ok("smtp %s: %s", c.SMTP.Addr, strings.TrimSpace(who))
		}
	}
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
