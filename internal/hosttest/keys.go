package hosttest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"

	"skagerrak/adjudicator"
	"skagerrak/engine"
	"skagerrak/mail/compose"
)

// KeyFiles writes armored public keys for allied, german and the referee,
// a private key (which new must refuse: "private") and a file that is no
// key ("notkey") under dir, returning their paths.
func KeyFiles(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, n := range []string{"allied", "german", "referee"} {
		k, err := compose.GenerateKey(n, n+"@example.org", time.Now().Add(-time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		pub, _ := compose.ArmorPublicKey(k)
		p := filepath.Join(dir, n+".asc")
		os.WriteFile(p, pub, 0o644)
		out[n] = p
		if n == "german" {
			priv, _ := compose.ArmorPrivateKey(k)
			pp := filepath.Join(dir, "german-secret.asc")
			os.WriteFile(pp, priv, 0o600)
			out["private"] = pp
		}
	}
	notKey := filepath.Join(dir, "notes.txt")
	os.WriteFile(notKey, []byte("hello\n"), 0o644)
	out["notkey"] = notKey
	return out
}

// NewGameArgs is the command line of skagerrak new for game (racetest)
// under data, its players' keys k (KeyFiles), and extra arguments.
func NewGameArgs(data, game string, k map[string]string, extra ...string) []string {
	a := []string{"--data-dir", data, "new", "--game", game, "--ruleset", "racetest",
		"--side", "allied=a@example.org," + k["allied"], "--side", "german=g@example.org," + k["german"],
		"--referee", "ref@example.org," + k["referee"]}
	return append(a, extra...)
}

// AddPlayers makes a key for each side (a throwaway address
// side@players.test, created an hour ago) and adds the side to spec: as
// its referee for "referee", as a player otherwise. It returns the
// private keys by side, with which the tests sign and decrypt.
func AddPlayers(t testing.TB, spec *adjudicator.Spec, sides ...string) map[string]*openpgp.Entity {
	t.Helper()
	now := time.Now().Add(-time.Hour)
	keys := map[string]*openpgp.Entity{}
	for _, side := range sides {
		k, err := compose.GenerateKey(side, side+"@players.test", now)
		if err != nil {
			t.Fatal(err)
		}
		pub, _ := compose.ArmorPublicKey(k)
		keys[side] = k
		p := adjudicator.Player{Side: engine.Side(side), Address: side + "@players.test", Key: string(pub), Fingerprint: compose.Fingerprint(k)}
		if side == "referee" {
			spec.Referee = &p
		} else {
			spec.Players = append(spec.Players, p)
		}
	}
	return keys
}
