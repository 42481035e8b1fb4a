package picture

import (
	"crypto/sha256"
	"encoding/json"
)

// What a map shows its reader, apart from its captions: the title and
// subtitle (and the notes marked as captions) name the phase (and its
// weather and scores, told again in the report's text), so they change
// every phase while the map may not. A
// digest of the rest tells whether anything drawn on the map itself
// changed, without drawing it.

// Digest is the SHA-256 of everything m draws except its captions (its
// Title, Subtitle and first Captions Notes). Two maps with the same digest
// differ at most in their captions. The same HexMap always gives the same
// digest.
func (m HexMap) Digest() [32]byte {
	m.Title, m.Subtitle, m.Notes = "", "", m.Notes[min(max(m.Captions, 0), len(m.Notes)):]
	return digestOf("hex", m)
}

// Digest is the SHA-256 of everything m draws except its captions (its
// Title, Subtitle and first Captions Notes). Two maps with the same digest
// differ at most in their captions. The same AreaMap always gives the same
// digest.
func (m AreaMap) Digest() [32]byte {
	m.Title, m.Subtitle, m.Notes = "", "", m.Notes[min(max(m.Captions, 0), len(m.Notes)):]
	return digestOf("area", m)
}

// digestOf hashes kind and v's JSON: the draw lists hold only structs,
// slices, strings and numbers, so their JSON is the same for equal lists.
func digestOf(kind string, v any) [32]byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("picture: a draw list without JSON: " + err.Error()) // cannot happen: no maps, channels or funcs
	}
	return sha256.Sum256(append([]byte(kind+"\n"), b...))
}

// Digests combines the digests of the parts of one picture (e.g. a
// Sheet's maps, in order) into one.
func Digests(parts ...[32]byte) [32]byte {
	h := sha256.New()
	for _, p := range parts {
		h.Write(p[:])
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}
