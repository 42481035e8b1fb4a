package verify

import (
	"bytes"
	"crypto"
	"crypto/sha256"
	goerrors "errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp/armor"
	pgperrors "github.com/ProtonMail/go-crypto/openpgp/errors"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	openpgp "github.com/ProtonMail/go-crypto/openpgp/v2"
)

const (
	armorSigBegin = "-----BEGIN PGP SIGNATURE-----"
	armorSigEnd   = "-----END PGP SIGNATURE-----"
)

// sigPacket is the one signature packet of a signature part.
type sigPacket struct {
	raw   []byte // the binary packet, header included
	sig   *packet.Signature
	armor map[string]string // armor headers (unsigned, hostile)
}

// hashNames maps the hashes the policy accepts to their OpenPGP names; the
// micalg value is "pgp-" + lower-case name.
var hashNames = map[crypto.Hash]string{
	crypto.SHA224:   "SHA224",
	crypto.SHA256:   "SHA256",
	crypto.SHA384:   "SHA384",
	crypto.SHA512:   "SHA512",
	crypto.SHA3_256: "SHA3-256",
	crypto.SHA3_512: "SHA3-512",
}

// weakHashNames names the hashes the policy refuses, for the reason detail.
var weakHashNames = map[crypto.Hash]string{
	crypto.MD5:       "MD5",
	crypto.SHA1:      "SHA1",
	crypto.RIPEMD160: "RIPEMD160",
}

// hashIDNames names the OpenPGP hash algorithm IDs go-crypto cannot parse.
var hashIDNames = map[string]string{"1": "MD5", "2": "SHA1", "3": "RIPEMD160"}

// isArmored reports whether b (after leading whitespace) is an armored
// signature rather than a binary packet.
func isArmored(b []byte) bool {
	return bytes.HasPrefix(bytes.TrimLeft(b, " \t\r\n"), []byte("-----BEGIN PGP"))
}

// readSignature parses a signature part: exactly one armored block (or
// binary data) holding exactly one signature packet, optionally inside one
// compressed packet whose output is bounded.
func readSignature(b []byte, lim Limits) (*sigPacket, *Rejection) {
	sp := &sigPacket{}
	bin := b
	if isArmored(b) {
		t := bytes.TrimSpace(b)
		if n := bytes.Count(t, []byte("-----BEGIN PGP")); n != 1 {
			return nil, reject(ReasonMultipleSignatures, "%d armored blocks in the signature part", n)
		}
		if !bytes.HasPrefix(t, []byte(armorSigBegin)) || !bytes.HasSuffix(t, []byte(armorSigEnd)) {
			return nil, reject(ReasonBadStructure, "signature part is not exactly one %s block", armorSigBegin)
		}
		blk, err := armor.Decode(bytes.NewReader(t))
		if err != nil {
			return nil, reject(ReasonBadStructure, "bad signature armor: %v", err)
		}
		if blk.Type != "PGP SIGNATURE" {
			return nil, reject(ReasonBadStructure, "armor type %q instead of PGP SIGNATURE", blk.Type)
		}
		sp.armor = blk.Header
		bin, err = io.ReadAll(io.LimitReader(blk.Body, int64(lim.MaxSignatureBytes)+1))
		if err != nil {
			return nil, reject(ReasonBadStructure, "bad signature armor: %v", err)
		}
	}
	if len(bin) > lim.MaxSignatureBytes {
		return nil, reject(ReasonTooLarge, "signature larger than %d bytes", lim.MaxSignatureBytes)
	}
	raw, sig, rej := onePacket(bin, lim, true)
	if rej != nil {
		return nil, rej
	}
	sp.raw, sp.sig = raw, sig
	return sp, nil
}

// onePacket requires bin to be exactly one signature packet, or (when
// allowCompressed) one compressed packet whose bounded output is exactly one
// signature packet. It returns the raw bytes of the signature packet.
func onePacket(bin []byte, lim Limits, allowCompressed bool) ([]byte, *packet.Signature, *Rejection) {
	if len(bin) == 0 {
		return nil, nil, reject(ReasonBadStructure, "empty signature part")
	}
	r := bytes.NewReader(bin)
	var sigs []*packet.Signature
	var other []string
	var inner []byte
	for {
		p, err := packet.Read(r)
		if err == io.EOF {
			break
		}
		if err != nil {
			var unknown pgperrors.UnknownPacketTypeError
			if goerrors.As(err, &unknown) {
				other = append(other, fmt.Sprintf("packet type %d", int(unknown)))
				// The packet reader skips the body of unknown packets.
				continue
			}
			var unsup pgperrors.UnsupportedError
			if goerrors.As(err, &unsup) && strings.HasPrefix(string(unsup), "hash function ") {
				// go-crypto does not even parse signatures over hashes it
				// lacks (MD5, RIPEMD-160): they are outside the policy.
				id := strings.TrimPrefix(string(unsup), "hash function ")
				if name, ok := hashIDNames[id]; ok {
					id = name
				}
				return nil, nil, reject(ReasonWeakHash, "signature hash %s is not accepted", id)
			}
			return nil, nil, reject(ReasonBadStructure, "unreadable OpenPGP packet: %v", err)
		}
		switch p := p.(type) {
		case *packet.Signature:
			sigs = append(sigs, p)
		case *packet.Compressed:
			if !allowCompressed {
				return nil, nil, reject(ReasonBadStructure, "nested compressed packets")
			}
			out, err := io.ReadAll(io.LimitReader(p.Body, int64(lim.MaxDecompressedBytes)+1))
			if err != nil {
				return nil, nil, reject(ReasonBadStructure, "bad compressed packet: %v", err)
			}
			if len(out) > lim.MaxDecompressedBytes {
				return nil, nil, reject(ReasonTooLarge, "compressed OpenPGP data expands beyond %d bytes", lim.MaxDecompressedBytes)
			}
			if inner != nil {
				return nil, nil, reject(ReasonBadStructure, "more than one compressed packet")
			}
			inner = out
		default:
			other = append(other, fmt.Sprintf("%T", p))
		}
	}
	if inner != nil {
		if len(sigs) > 0 || len(other) > 0 {
			return nil, nil, reject(ReasonBadStructure, "compressed packet mixed with other packets")
		}
		return onePacket(inner, lim, false)
	}
	if len(sigs) > 1 {
		return nil, nil, reject(ReasonMultipleSignatures, "%d signature packets", len(sigs))
	}
	if len(other) > 0 {
		return nil, nil, reject(ReasonBadStructure, "non-signature packet in the signature part: %s", strings.Join(other, ", "))
	}
	if len(sigs) == 0 {
		return nil, nil, reject(ReasonBadStructure, "no signature packet")
	}
	return bin, sigs[0], nil
}

// checked is the outcome of a successful signature check.
type checked struct {
	fingerprint string
	sigTime     time.Time
	hash        string
	identity    [32]byte
	packetHash  [32]byte
}

// policyConfig is the go-crypto configuration of the verification policy:
// time fixed at the receipt time, RSA at least 2048 bits, go-crypto's
// default hash and algorithm rejections.
func policyConfig(at time.Time) *packet.Config {
	return &packet.Config{
		Time:       func() time.Time { return at },
		MinRSABits: 2048,
	}
}

// checkSignature applies the whole policy to one signature packet over data.
func checkSignature(sp *sigPacket, data []byte, keys openpgp.KeyRing, at time.Time, lim Limits) (*checked, *Rejection) {
	sig := sp.sig
	if sig.SigType != packet.SigTypeBinary && sig.SigType != packet.SigTypeText {
		return nil, reject(ReasonBadStructure, "signature type 0x%02x is not a document signature", uint8(sig.SigType))
	}
	if name, weak := weakHashNames[sig.Hash]; weak {
		return nil, reject(ReasonWeakHash, "signature hash %s is not accepted", name)
	}
	hashName, ok := hashNames[sig.Hash]
	if !ok {
		return nil, reject(ReasonWeakHash, "signature hash %v is not accepted", sig.Hash)
	}
	if sig.IssuerKeyId == nil {
		return nil, reject(ReasonNoIssuer, "signature names no issuer key")
	}
	if sig.CreationTime.After(at.Add(lim.ClockSkew)) {
		return nil, reject(ReasonFutureSignature, "signature made %s, received %s",
			sig.CreationTime.UTC().Format(time.RFC3339), at.UTC().Format(time.RFC3339))
	}
	keyID := *sig.IssuerKeyId
	ents := keys.EntitiesById(keyID)
	if len(ents) == 0 {
		return nil, reject(ReasonUnknownKey, "issuer key %016X is not known", keyID)
	}
	// go-crypto judges the signature's own expiry at cfg.Now() and refuses a
	// signature made after it; a signature within the allowed skew is
	// therefore judged at its own creation time.
	judge := at
	if sig.CreationTime.After(at) {
		judge = sig.CreationTime
	}
	cfg := policyConfig(judge)
	var last *Rejection
	for _, ent := range ents {
		if rej := keyStrength(ent, keyID, cfg); rej != nil {
			last = rej
			continue
		}
		_, _, err := openpgp.VerifyDetachedSignature(openpgp.EntityList{ent}, bytes.NewReader(data), bytes.NewReader(sp.raw), cfg)
		if err != nil {
			last = mapError(err, "at signature time")
			if last.Reason == ReasonBadSignature {
				// go-crypto reports an unusable subkey as a structural error;
				// name the cause when it is expiry or revocation.
				if rej := keyValidAt(ent, keyID, sig.CreationTime, cfg); rej != nil && rej.Reason != ReasonUnknownKey {
					last = reject(rej.Reason, "signing key not valid at signature time")
				}
			}
			continue
		}
		if rej := keyValidAt(ent, keyID, at, cfg); rej != nil {
			last = rej
			continue
		}
		id, err := identity(ent.PrimaryKey.Fingerprint, sig, data)
		if err != nil {
			return nil, reject(ReasonBadSignature, "%v", err)
		}
		return &checked{
			fingerprint: fmt.Sprintf("%X", ent.PrimaryKey.Fingerprint),
			sigTime:     sig.CreationTime,
			hash:        hashName,
			identity:    id,
			packetHash:  sha256.Sum256(sp.raw),
		}, nil
	}
	return nil, last
}

// keyStrength refuses RSA keys under 2048 bits and algorithms go-crypto
// rejects, for the primary key and the issuing subkey.
func keyStrength(ent *openpgp.Entity, keyID uint64, cfg *packet.Config) *Rejection {
	pks := []*packet.PublicKey{ent.PrimaryKey}
	for _, sk := range ent.Subkeys {
		if sk.PublicKey.KeyId == keyID {
			pks = append(pks, sk.PublicKey)
		}
	}
	for _, pk := range pks {
		if cfg.RejectPublicKeyAlgorithm(pk.PubKeyAlgo) {
			return reject(ReasonWeakKey, "public key algorithm %d is not accepted", int(pk.PubKeyAlgo))
		}
		switch pk.PubKeyAlgo {
		case packet.PubKeyAlgoRSA, packet.PubKeyAlgoRSASignOnly:
			bits, err := pk.BitLength()
			if err != nil || bits < cfg.MinRSABits {
				return reject(ReasonWeakKey, "RSA key %016X has %d bits, at least %d are required", pk.KeyId, bits, cfg.MinRSABits)
			}
		}
	}
	return nil
}

// keyValidAt applies the receipt-time half of the policy: the primary key
// and the issuing subkey must be neither revoked nor expired at `at`.
func keyValidAt(ent *openpgp.Entity, keyID uint64, at time.Time, cfg *packet.Config) *Rejection {
	if _, err := ent.VerifyPrimaryKey(at, cfg); err != nil {
		return mapError(err, "at receipt time")
	}
	if ent.PrimaryKey.KeyId == keyID {
		return nil
	}
	for i := range ent.Subkeys {
		sk := &ent.Subkeys[i]
		if sk.PublicKey.KeyId != keyID {
			continue
		}
		if _, err := sk.Verify(at, cfg); err != nil {
			return mapError(err, "at receipt time")
		}
		return nil
	}
	return reject(ReasonUnknownKey, "issuer key %016X not found in its certificate", keyID)
}

// mapError turns a go-crypto verification error into a Rejection.
func mapError(err error, when string) *Rejection {
	var weak pgperrors.WeakAlgorithmError
	switch {
	case goerrors.Is(err, pgperrors.ErrKeyRevoked):
		return reject(ReasonRevokedKey, "signing key revoked (%s)", when)
	case goerrors.Is(err, pgperrors.ErrKeyExpired):
		return reject(ReasonExpiredKey, "signing key expired (%s)", when)
	case goerrors.Is(err, pgperrors.ErrSignatureExpired):
		return reject(ReasonExpiredSignature, "signature expired before receipt")
	case goerrors.Is(err, pgperrors.ErrUnknownIssuer):
		return reject(ReasonUnknownKey, "issuer key is not known")
	case goerrors.As(err, &weak):
		return reject(ReasonWeakKey, "%v", err)
	case strings.Contains(err.Error(), "insecure") && strings.Contains(err.Error(), "hash"):
		return reject(ReasonWeakHash, "%v", err)
	default:
		return reject(ReasonBadSignature, "%v", err)
	}
}

// armorSummary lists armor headers as "Key: value" pairs in key order.
func armorSummary(h map[string]string) []string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, k+": "+h[k])
	}
	return out
}

// readAllLimited reads r up to max bytes; more is a too-large rejection.
func readAllLimited(r io.Reader, max int) ([]byte, *Rejection) {
	b, err := io.ReadAll(io.LimitReader(r, int64(max)+1))
	if err != nil {
		return nil, reject(ReasonBadStructure, "bad signature armor: %v", err)
	}
	if len(b) > max {
		return nil, reject(ReasonTooLarge, "signature larger than %d bytes", max)
	}
	return b, nil
}
