package wiring

import (
	"fmt"
	"os"

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"

	"skagerrak/config"
	"skagerrak/mail/compose"
)

// AllowReadableKeyFlag is the command's flag that lets a host key file others can
// read be loaded all the same.
const AllowReadableKeyFlag = "allow-readable-host-key"

// LoadHostKey opens and unlocks the host's private key, which signs every
// mail the host sends. A key file that group or others may read or change
// is refused, naming the file and the fix, unless allowReadable: whoever
// reads it can sign as the host (a passphrase only slows them down).
// run, poll and config check all load the key here.
func LoadHostKey(path, passphrase string, allowReadable bool) (*openpgp.Entity, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("host_key: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("host_key: %w", err)
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 && !allowReadable {
		return nil, fmt.Errorf("host_key %s is open to others (mode %04o): whoever reads it signs as the host; run chmod 600 %s (or pass --%s to load it all the same)", path, perm, path, AllowReadableKeyFlag)
	}
	key, err := compose.ReadPrivateKeyWithPassphrase(f, []byte(passphrase))
	if err != nil {
		return nil, fmt.Errorf("host_key %s: %w (a protected key takes its passphrase from %s)", path, err, config.EnvName("host_key_passphrase"))
	}
	return key, nil
}
