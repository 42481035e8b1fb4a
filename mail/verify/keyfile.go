package verify

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/ProtonMail/go-crypto/openpgp/armor"
	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"
)

// ReadPublicKeyFile reads an armored public key file (a player's, for
// skagerrak new or referee key) and returns the armor and the primary
// key's fingerprint. A private key, no key, or a file holding
// more than one certificate (in one armored block or in several) is an
// error naming the file and, for several, each certificate found.
func ReadPublicKeyFile(path string) (string, string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", "", unreadableKeyFile(path, err)
	}
	el, err := ReadCertificates(b)
	if err != nil {
		return "", "", fmt.Errorf("%s is not an armored OpenPGP public key (export one with gpg --export --armor): %v", path, err)
	}
	if len(el) != 1 {
		return "", "", fmt.Errorf("%s holds %d certificates (%s); give one public key per side (gpg --export --armor FINGERPRINT)", path, len(el), describeCertificates(el))
	}
	if el[0].PrivateKey != nil {
		return "", "", fmt.Errorf("%s is a private key; give the public key (gpg --export --armor), never the secret one", path)
	}
	return string(b), strings.ToUpper(hex.EncodeToString(el[0].PrimaryKey.Fingerprint)), nil
}

// unreadableKeyFile explains a key file the command may not read: run as
// the daemon's user (runuser keeps the working directory), a key in root's
// home is out of its reach, which "permission denied" alone does not say.
func unreadableKeyFile(path string, err error) error {
	if !errors.Is(err, fs.ErrPermission) {
		return err
	}
	who := "this command's user"
	if u, uerr := user.Current(); uerr == nil {
		who = "user " + u.Username
	}
	// os.Getwd stats ".", which a directory closed to the user refuses;
	// the system call answers all the same.
	if wd, werr := syscall.Getwd(); werr == nil && !filepath.IsAbs(path) {
		path = filepath.Join(wd, path)
	}
	return fmt.Errorf("%w (%s may not read %s: put the key file where it can, e.g. install -m 0644 -t /var/lib/skagerrak FILE)", err, who, path)
}

// ReadCertificates reads every armored block of a key file: go-crypto's
// ReadArmoredKeyRing reads only the first, and a second block would be
// stored with the first and never looked at.
func ReadCertificates(b []byte) (openpgp.EntityList, error) {
	begin := []byte("-----BEGIN PGP ")
	var starts []int
	for i := 0; ; {
		j := bytes.Index(b[i:], begin)
		if j < 0 {
			break
		}
		starts = append(starts, i+j)
		i += j + len(begin)
	}
	if len(starts) == 0 {
		return nil, errors.New("no armored block")
	}
	var all openpgp.EntityList
	for n, s := range starts {
		end := len(b)
		if n+1 < len(starts) {
			end = starts[n+1]
		}
		blk, err := armor.Decode(bytes.NewReader(b[s:end]))
		if err != nil {
			return nil, err
		}
		el, err := openpgp.ReadKeyRing(blk.Body)
		if err != nil {
			return nil, err
		}
		all = append(all, el...)
	}
	return all, nil
}

// describeCertificates names each certificate by fingerprint and user IDs
// (escaped: they are the key owner's text).
func describeCertificates(el openpgp.EntityList) string {
	var out []string
	for _, e := range el {
		var ids []string
		for name := range e.Identities {
			ids = append(ids, Escape(name))
		}
		sort.Strings(ids)
		if len(ids) == 0 {
			ids = []string{"no user ID"}
		}
		out = append(out, strings.ToUpper(hex.EncodeToString(e.PrimaryKey.Fingerprint))+" "+strings.Join(ids, ", "))
	}
	return strings.Join(out, "; ")
}
