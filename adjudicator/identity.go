package adjudicator

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
)

// IdentityPrefix opens the key of every signed message recorded by this
// build: the canonical identity of its signature (mail/verify's
// Result.Identity), which no re-encoding changes. A key without it is the
// SHA-256 of the signature packet, as logs made before recorded; a key
// "unsigned:..." names orders entered on paper. events/doc.go documents
// both.
const IdentityPrefix = "sig1:"

// IdentityKey is the key recorded for a signed message of this identity.
func IdentityKey(id [32]byte) string { return IdentityPrefix + hex.EncodeToString(id[:]) }

// canonicalKey reports whether an event's key is a canonical identity:
// such an event follows the rules of this build (a duplicate of any
// signed event refused, signing order strict), while events keyed by
// their packet replay as they were recorded.
func canonicalKey(key string) bool { return strings.HasPrefix(key, IdentityPrefix) }

// Seen reports whether a message with this key is recorded in the game.
func (g *Game) Seen(key string) bool { return key != "" && g.keys[key] != 0 }

// SeenRejected reports whether the submission with this key was rejected,
// so that a copy of it, or the same message met again because moving it
// failed, goes to the rejected folder too.
func (g *Game) SeenRejected(key string) bool { return g.Seen(key) && g.rejected[key] }

// seen reports whether a submission is a message the game has recorded:
// by its identity, by the packet key an older event recorded, or, for a
// message recorded before identities, by signer, signing time and text
// (which a re-encoded copy of it shares).
func (g *Game) seen(sub Submission) bool {
	if g.Seen(sub.Key) || g.Seen(sub.PacketKey) {
		return true
	}
	return sub.Fingerprint != "" && g.legacy[contentKey(sub.Fingerprint, sub.SigTime, sub.Text)]
}

// recordOf is the seq of the record of a submission the game has seen, 0
// when it is known only by its content (recorded before identities).
func (g *Game) recordOf(sub Submission) uint64 {
	if seq := g.keys[sub.Key]; seq != 0 || sub.PacketKey == "" {
		return seq
	}
	return g.keys[sub.PacketKey]
}

// noteKey records an event's key at its seq. An event with a canonical
// key that is already recorded is refused, naming both seqs (verify
// reports a replayed message so); for a packet key only accepted orders
// are checked, as the build that wrote them did.
func (g *Game) noteKey(seq uint64, typ, key string) error {
	if key == "" {
		return nil
	}
	if first := g.keys[key]; first != 0 && (canonicalKey(key) || typ == EvOrdersAccepted) {
		return fmt.Errorf("the message %s was recorded before, at seq %d: a replay is recorded once", key, first)
	}
	if g.keys[key] == 0 {
		g.keys[key] = seq
	}
	return nil
}

// noteLegacy remembers a signed message recorded under its packet key by
// what a re-encoded copy has in common with it.
func (g *Game) noteLegacy(key, fingerprint string, sigTime time.Time, text string) {
	if key != "" && !canonicalKey(key) && fingerprint != "" && !sigTime.IsZero() {
		g.legacy[contentKey(fingerprint, sigTime, text)] = true
	}
}

// contentKey names a signed text by its signer and signing second, with
// line ends made LF (a text signature covers either).
func contentKey(fingerprint string, sigTime time.Time, text string) string {
	t := strings.ReplaceAll(text, "\r\n", "\n")
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d\x00%s", fingerprint, sigTime.Unix(), t)))
	return hex.EncodeToString(sum[:])
}
