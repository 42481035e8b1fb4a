// Package compose builds skagerrak's outgoing mail and the player-side mail
// of the demo's scripted players and of tests.
//
// # Host mail
//
// A Message (From, To, Subject, a caller-chosen Message-ID, Date, a text
// body and attachments) is rendered with go-message: a quoted-printable
// text/plain part, or a multipart/mixed of an inline text part and base64
// attachments. Sign wraps that entity in RFC 3156 multipart/signed
// (protocol="application/pgp-signature", micalg naming the signature's hash,
// pgp-sha256 for every key this package makes) with an armored detached
// signature by the host's key over the entity's CRLF bytes. SignEncrypt then
// encrypts the whole multipart/signed entity to the recipient's key as RFC
// 3156 multipart/encrypted (sign, then encrypt).
//
// # Determinism
//
// Boundaries are derived from the Message-ID and a SHA-256 of the content
// they separate; the signature's creation time is the `at` argument; the
// random salt notation go-crypto adds to v4 signatures by default is turned
// off; Ed25519 and RSA PKCS#1 v1.5 signatures are deterministic. So Sign and
// the player helpers give the same bytes for the same inputs. Encryption
// cannot be deterministic: each SignEncrypt draws a fresh session key.
//
// # Player mail
//
// SignCleartextMail, SignPGPMIMEMail, SignPGPMIMEAttachmentMail and
// SignDetachedMail produce the three forms mail/verify accepts, signed with
// SHA-256; their Message-IDs are derived from the signer, time and content.
// ReadReport is the player's side of a report: it decrypts (when
// multipart/encrypted), checks the host's PGP/MIME signature with
// verify.VerifyEnvelope under mail/verify's policy, and returns the text and
// attachments of the signed part only.
//
// Message.Autocrypt puts an Autocrypt header (addr, prefer-encrypt=mutual
// and the keydata of AutocryptKeydata: the host's public certificate)
// on a mail, outside the signature and the encryption.
//
// # Keys
//
// GenerateKey makes a v4 Ed25519 signing key with a Curve25519 encryption
// subkey (readable by GnuPG 2.2+), ReadPrivateKey reads an armored,
// unprotected private key (the host_key), ArmorPublicKey/ArmorPrivateKey
// export, Fingerprint and FormatFingerprint format fingerprints. Errors are
// prefixed "compose:".
package compose
