package compose

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"
)

// fuzzKeys reads the checked-in throwaway host and player keys of the fuzz
// corpus (testdata/fuzz-*.asc; never used for anything else).
func fuzzKeys(t testing.TB) (host, player *openpgp.Entity) {
	t.Helper()
	read := func(name string) *openpgp.Entity {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		e, err := ReadPrivateKey(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	return read("fuzz-host.asc"), read("fuzz-player.asc")
}

// FuzzReadReport feeds received mail to ReadReport, the player-side parser
// of reports, with keys that open the encrypted seeds.
func FuzzReadReport(f *testing.F) {
	host, player := fuzzKeys(f)
	hostKeys := openpgp.EntityList{host}
	f.Add([]byte("Content-Type: multipart/encrypted; protocol=\"application/pgp-encrypted\"; boundary=b\r\n\r\n--b\r\nContent-Type: application/pgp-encrypted\r\n\r\nVersion: 1\r\n--b\r\n\r\n-----BEGIN PGP MESSAGE-----\r\n\r\n-----END PGP MESSAGE-----\r\n--b--\r\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		rep, err := ReadReport(raw, hostKeys, player, t0)
		if err == nil && rep.Fingerprint != Fingerprint(host) {
			t.Fatalf("report accepted from %s", rep.Fingerprint)
		}
	})
}

// TestFuzzCorpus checks that the checked-in seeds of FuzzReadReport still
// read, and rewrites them when SKAGERRAK_WRITE_FUZZ_CORPUS=1.
func TestFuzzCorpus(t *testing.T) {
	host, player := fuzzKeys(t)
	dir := filepath.Join("testdata", "fuzz", "FuzzReadReport")
	if os.Getenv("SKAGERRAK_WRITE_FUZZ_CORPUS") == "1" {
		m := report()
		signed, err := Sign(m, host, t0)
		if err != nil {
			t.Fatal(err)
		}
		m.Attachments = []Attachment{{Name: "form.txt", ContentType: "text/plain", Data: []byte("Game: x\n")}}
		enc, err := SignEncrypt(m, host, player, t0)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, b := range map[string][]byte{"signed": signed, "encrypted": enc} {
			content := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", b)
			if err := os.WriteFile(filepath.Join(dir, "seed-"+name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, name := range []string{"signed", "encrypted"} {
		b, err := os.ReadFile(filepath.Join(dir, "seed-"+name))
		if err != nil {
			t.Fatal(err)
		}
		quoted, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "go test fuzz v1\n[]byte(")
		if !ok {
			t.Fatalf("seed %s is not a corpus file", name)
		}
		raw, err := strconv.Unquote(strings.TrimSuffix(quoted, ")"))
		if err != nil {
			t.Fatalf("seed %s: %v", name, err)
		}
		rep, err := ReadReport([]byte(raw), openpgp.EntityList{host}, player, t0)
		if err != nil {
			t.Fatalf("seed %s does not read: %v", name, err)
		}
		if rep.Encrypted != (name == "encrypted") || rep.Text != report().Text {
			t.Errorf("seed %s: %+v", name, rep)
		}
	}
}
