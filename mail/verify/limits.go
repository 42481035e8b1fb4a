package verify

import "time"

// Limits bounds the work Verify does on one message. A zero field takes the
// default of DefaultLimits.
type Limits struct {
	// MaxMessageBytes is the largest raw message accepted (default 1 MiB).
	MaxMessageBytes int
	// MaxDepth is the deepest MIME nesting accepted; the root is depth 0
	// (default 8).
	MaxDepth int
	// MaxParts is the largest number of MIME entities, the root included
	// (default 64).
	MaxParts int
	// MaxSignatureBytes bounds a signature part after armor decoding
	// (default 64 KiB).
	MaxSignatureBytes int
	// MaxDecompressedBytes bounds the output of a compressed OpenPGP packet
	// wrapping a signature (default 64 KiB).
	MaxDecompressedBytes int
	// ClockSkew is how far after the receipt time a signature's creation
	// time may lie before it is rejected as future-dated (default 10 minutes).
	ClockSkew time.Duration
}

// DefaultLimits returns the limits used when a zero Limits is given.
func DefaultLimits() Limits {
	return Limits{
		MaxMessageBytes:      1 << 20,
		MaxDepth:             8,
		MaxParts:             64,
		MaxSignatureBytes:    64 << 10,
		MaxDecompressedBytes: 64 << 10,
		ClockSkew:            10 * time.Minute,
	}
}

// withDefaults fills the zero fields of l from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxMessageBytes <= 0 {
		l.MaxMessageBytes = d.MaxMessageBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = d.MaxDepth
	}
	if l.MaxParts <= 0 {
		l.MaxParts = d.MaxParts
	}
	if l.MaxSignatureBytes <= 0 {
		l.MaxSignatureBytes = d.MaxSignatureBytes
	}
	if l.MaxDecompressedBytes <= 0 {
		l.MaxDecompressedBytes = d.MaxDecompressedBytes
	}
	if l.ClockSkew <= 0 {
		l.ClockSkew = d.ClockSkew
	}
	return l
}
