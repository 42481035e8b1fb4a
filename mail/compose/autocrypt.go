package compose

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"strings"

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"
)

// AutocryptKeydata is the keydata of an Autocrypt header (Autocrypt Level
// 1): the base64 of e's public certificate (primary key, user IDs, the
// encryption subkey and their signatures), never its private part.
func AutocryptKeydata(e *openpgp.Entity) (string, error) {
	var b bytes.Buffer
	if err := e.Serialize(&b); err != nil {
		return "", fmt.Errorf("compose: autocrypt keydata: %w", err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes()), nil
}

// autocryptField is the raw Autocrypt header field, its keydata folded
// into lines of 72 characters (whitespace inside keydata is ignored by
// its readers).
func autocryptField(addr, keydata string) []byte {
	var b strings.Builder
	b.WriteString("Autocrypt: addr=" + addr + "; prefer-encrypt=mutual; keydata=")
	for len(keydata) > 0 {
		n := min(len(keydata), 72)
		b.WriteString("\r\n " + keydata[:n])
		keydata = keydata[n:]
	}
	b.WriteString("\r\n")
	return []byte(b.String())
}
