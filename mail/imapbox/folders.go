package imapbox

import (
	"errors"
	"fmt"
	"strings"

	"github.com/emersion/go-imap/v2"
)

// Folder roles, named by FolderError so that the caller can point at the
// setting that names the folder.
const (
	RoleMailbox   = "mailbox"
	RoleProcessed = "processed"
	RoleRejected  = "rejected"
)

// DefaultFolderParent is the folder under which the default Processed and
// Rejected folders are made: "skagerrak/processed" on a server whose
// hierarchy delimiter is "/", "skagerrak.processed" on one whose delimiter
// is "." (Dovecot with Maildir++), "skagerrak-processed" on a flat one.
const DefaultFolderParent = "skagerrak"

// DefaultFolder is the default name of the folder of role (RoleProcessed
// or RoleRejected) on a server whose personal namespace has the prefix and
// the hierarchy delimiter delim (0 for a flat namespace).
func DefaultFolder(prefix string, delim rune, role string) string {
	if delim == 0 {
		return prefix + DefaultFolderParent + "-" + role
	}
	return prefix + DefaultFolderParent + string(delim) + role
}

// FolderError says that a folder the box needs cannot be made or used. The
// box gives up at once on it: retrying would not help.
type FolderError struct {
	// Role is RoleMailbox, RoleProcessed or RoleRejected.
	Role string
	// Folder is the folder's name as configured or defaulted.
	Folder string
	// Delim is the server's hierarchy delimiter, 0 for a flat namespace.
	Delim rune
	// Err is what went wrong, the server's answer where there was one.
	Err error
}

func (e *FolderError) Error() string {
	delim := "none (a flat namespace)"
	if e.Delim != 0 {
		delim = fmt.Sprintf("%q", string(e.Delim))
	}
	return fmt.Sprintf("imapbox: the %s folder %q: %v (the server's hierarchy delimiter is %s)", e.Role, e.Folder, e.Err, delim)
}

func (e *FolderError) Unwrap() error { return e.Err }

// hierarchy learns the personal namespace's prefix (NAMESPACE, where
// offered) and the hierarchy delimiter (LIST "" "", RFC 3501 6.3.8).
func hierarchy(s *session) (prefix string, delim rune, err error) {
	list, err := s.c.List("", "", nil).Collect()
	if err != nil {
		return "", 0, fmt.Errorf("imapbox: LIST \"\" \"\": %w", err)
	}
	for _, l := range list {
		delim = l.Delim
	}
	if s.caps.Has(imap.CapNamespace) || s.caps.Has(imap.CapIMAP4rev2) {
		ns, err := s.c.Namespace().Wait()
		if err != nil {
			return "", 0, fmt.Errorf("imapbox: NAMESPACE: %w", err)
		}
		if len(ns.Personal) > 0 {
			prefix = ns.Personal[0].Prefix
			if ns.Personal[0].Delim != 0 {
				delim = ns.Personal[0].Delim
			}
		}
	}
	return prefix, delim, nil
}

// resolveFolders fills in the default folder names from what the server
// says of its hierarchy. It runs on the first connection only, so the names
// stay the same for the life of the box.
func (b *Box) resolveFolders(s *session) error {
	if b.processed != "" && b.rejected != "" {
		return nil
	}
	prefix, delim, err := hierarchy(s)
	if err != nil {
		return err
	}
	b.delim = delim
	b.processed, b.rejected = b.cfg.Processed, b.cfg.Rejected
	if b.processed == "" {
		b.processed = DefaultFolder(prefix, delim, RoleProcessed)
	}
	if b.rejected == "" {
		b.rejected = DefaultFolder(prefix, delim, RoleRejected)
	}
	return nil
}

// ensureFolder makes sure folder exists and can hold messages, creating it
// when LIST does not show it. A folder that cannot be made or used is a
// *FolderError (a local error: no retry).
func (b *Box) ensureFolder(s *session, role, folder string) error {
	fail := func(err error) error {
		return local(&FolderError{Role: role, Folder: folder, Delim: b.delim, Err: err})
	}
	found, err := listed(s, folder)
	if err != nil {
		return err
	}
	if found == nil {
		if err := createFolder(s, folder); err != nil {
			var ierr *imap.Error
			if errors.As(err, &ierr) {
				return fail(fmt.Errorf("cannot be created: the server says %w", err))
			}
			return err
		}
		b.log.Info("created folder", "folder", folder)
		if found, err = listed(s, folder); err != nil {
			return err
		}
		if found == nil {
			return fail(errors.New("was created but the server does not list it"))
		}
	}
	for _, a := range found.Attrs {
		if strings.EqualFold(string(a), string(imap.MailboxAttrNoSelect)) || strings.EqualFold(string(a), string(imap.MailboxAttrNonExistent)) {
			return fail(fmt.Errorf("cannot hold messages (the server lists it %s)", a))
		}
	}
	return nil
}

// listed returns folder's LIST entry, nil when the server lists none.
func listed(s *session, folder string) (*imap.ListData, error) {
	list, err := s.c.List("", folder, nil).Collect()
	if err != nil {
		return nil, fmt.Errorf("imapbox: LIST %q: %w", folder, err)
	}
	for _, l := range list {
		if l.Mailbox == folder || (strings.EqualFold(folder, "INBOX") && strings.EqualFold(l.Mailbox, "INBOX")) {
			return l, nil
		}
	}
	return nil, nil
}

// createFolder creates folder, taking "already exists" for success.
func createFolder(s *session, folder string) error {
	err := s.c.Create(folder, nil).Wait()
	var ierr *imap.Error
	if errors.As(err, &ierr) && ierr.Code == imap.ResponseCodeAlreadyExists {
		return nil
	}
	return err
}

// Processed is the name of the folder processed messages go to, as
// configured or made from the server's hierarchy delimiter.
func (b *Box) Processed() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.processed
}

// Rejected is the name of the folder rejected messages go to.
func (b *Box) Rejected() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.rejected
}
