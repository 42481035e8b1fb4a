package engine

import (
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"sort"
)

// Roll is one die roll as made: the number of faces, the face rolled, and
// why (for reports and for checking a replay).
type Roll struct {
	Sides int    `json:"sides"`
	Value int    `json:"value"`
	Why   string `json:"why,omitempty"`
}

// Dice is the source of every random number a ruleset uses. Rulesets call
// Roll and nothing else; the adjudicator chooses the implementation.
type Dice interface {
	// Roll returns a uniformly random integer in 1..sides, noting why.
	Roll(sides int, why string) int
}

// D6 rolls one six-sided die.
func D6(d Dice, why string) int { return d.Roll(6, why) }

// TwoD6 rolls two six-sided dice and returns their sum.
func TwoD6(d Dice, why string) int { return d.Roll(6, why) + d.Roll(6, why) }

// SeededDice is the dice of a phase in a game with computer dice: a ChaCha8
// stream seeded with HMAC-SHA256(secret, game | phase | orders digest). It
// records every roll it makes.
type SeededDice struct {
	src   *rand.ChaCha8
	rolls []Roll
}

// DiceSeed computes the seed of a phase's dice stream. The fields are joined
// with a 0 byte, which none of them contains.
func DiceSeed(secret []byte, game, phase string, ordersDigest [32]byte) [32]byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(game))
	m.Write([]byte{0})
	m.Write([]byte(phase))
	m.Write([]byte{0})
	m.Write(ordersDigest[:])
	var seed [32]byte
	copy(seed[:], m.Sum(nil))
	return seed
}

// NewSeededDice returns the dice for one phase of one game.
func NewSeededDice(secret []byte, game, phase string, ordersDigest [32]byte) *SeededDice {
	return &SeededDice{src: rand.NewChaCha8(DiceSeed(secret, game, phase, ordersDigest))}
}

// Roll implements Dice. The reduction to 1..sides is done here, by rejection
// sampling on the raw ChaCha8 output, so that the rolls of a seed never
// change with the Go version.
func (d *SeededDice) Roll(sides int, why string) int {
	if sides < 1 {
		panic(fmt.Sprintf("engine: die with %d sides", sides))
	}
	n := uint64(sides)
	limit := ^uint64(0) - (^uint64(0) % n) // multiples of n below this are unbiased
	var v uint64
	for {
		v = d.src.Uint64()
		if v < limit {
			break
		}
	}
	r := Roll{Sides: sides, Value: int(v%n) + 1, Why: why}
	d.rolls = append(d.rolls, r)
	return r.Value
}

// Rolls returns every roll made so far, in order.
func (d *SeededDice) Rolls() []Roll { return append([]Roll(nil), d.rolls...) }

// ManualDice takes its rolls from a supplied list: real dice at a table,
// playtests, and tests. It invents no roll: a roll asked for beyond the
// list stops the resolution there (a *Halt panic carrying *DieMissing,
// which Resolve and the rulesets' Resolve return as the error), noting the
// roll wanted (Wanted).
//
// A supplied value is the face of the die its roll asks for (1 to its
// sides), except for the first values of a hand given as d6 faces
// (NewManualDice, NewHandDice): such a value is read off a six-sided die as
// players do, a d3 half of it rounded up (1-2 is 1, 3-4 is 2, 5-6 is 3), a
// d2 1-3 and 4-6, and no other die but a d6 can be read off one. Manual
// dice were d6 faces only until dice of every type; hands supplied before
// keep that meaning.
type ManualDice struct {
	values []int
	// d6 is how many values, from the first, are d6 faces.
	d6     int
	next   int
	short  int
	rolls  []Roll
	wanted []Roll
	// mismatch records the first roll whose value does not fit its die, or
	// whose sides differ from a recorded roll (see NewReplayDice).
	mismatch string
	sides    []int
}

// NewManualDice returns dice that roll the given d6 faces in order (a d3
// or d2 is read off a d6). A value that is no face of a d6, or a die a d6
// cannot stand for, is an error reported by Err.
func NewManualDice(values ...int) *ManualDice {
	return &ManualDice{values: append([]int(nil), values...), d6: len(values)}
}

// NewFaceDice returns dice that roll the given values in order, each the
// face of the die its roll asks for (1 to its sides). A value outside its
// die is an error reported by Err.
func NewFaceDice(values ...int) *ManualDice {
	return &ManualDice{values: append([]int(nil), values...)}
}

// NewHandDice returns the dice of a manual-dice game's hand: the first d6
// values are d6 faces (supplied before dice of every type), the rest faces
// of the dice their rolls ask for.
func NewHandDice(d6 int, values []int) *ManualDice {
	return &ManualDice{values: append([]int(nil), values...), d6: min(max(d6, 0), len(values))}
}

// NewReplayDice returns dice that roll exactly the recorded rolls, and note
// any roll asked for with a different number of faces than was recorded.
func NewReplayDice(rolls []Roll) *ManualDice {
	d := &ManualDice{}
	for _, r := range rolls {
		d.values = append(d.values, r.Value)
		d.sides = append(d.sides, r.Sides)
	}
	return d
}

// Roll implements Dice.
func (d *ManualDice) Roll(sides int, why string) int {
	if d.next >= len(d.values) {
		w := Roll{Sides: sides, Why: why}
		d.short++
		d.wanted = append(d.wanted, w)
		panic(&Halt{Err: &DieMissing{Want: w}})
	}
	v := d.values[d.next]
	bad := func(format string, args ...any) {
		if d.mismatch == "" {
			d.mismatch = fmt.Sprintf("roll %d ", d.next+1) + fmt.Sprintf(format, args...) + " (" + why + ")"
		}
	}
	switch {
	case d.sides != nil:
		if d.sides[d.next] != sides {
			bad("was recorded as a d%d but asked for as a d%d", d.sides[d.next], sides)
		}
		if v < 1 || v > sides {
			bad("is %d, not a face of a d%d", v, sides)
		}
	case d.next < d.d6:
		if f, err := D6Face(v, sides); err != nil {
			bad("is %d, supplied as a d6 face: %v", v, err)
		} else {
			v = f
		}
	case v < 1 || v > sides:
		bad("is %d, not a face of the d%d it is for", v, sides)
	}
	// A value that does not fit is an error (Err); the result it leads to
	// is discarded, but the ruleset must not be handed an impossible face.
	v = min(max(v, 1), max(sides, 1))
	d.next++
	d.rolls = append(d.rolls, Roll{Sides: sides, Value: v, Why: why})
	return v
}

// D6Face reads a die of the given sides off the face v of a six-sided die,
// as manual dice supplied as d6 faces do: a d6 is the face itself, a d3
// half of it rounded up, a d2 1-3 and 4-6. A face outside 1-6, or a die a
// d6 cannot stand for, is an error.
func D6Face(v, sides int) (int, error) {
	switch {
	case v < 1 || v > 6:
		return 0, fmt.Errorf("%d is not a face of a d6", v)
	case sides < 1 || 6%sides != 0:
		return 0, fmt.Errorf("a d%d was asked for, which a d6 face cannot give", sides)
	}
	return (v*sides + 5) / 6, nil
}

// Wanted lists the roll asked for beyond those supplied, with its die and
// what it is for: the resolution stopped at it, so there is at most one
// (more if a caller went on rolling after recovering the halt).
func (d *ManualDice) Wanted() []Roll { return append([]Roll(nil), d.wanted...) }

// Short is how many rolls were asked for beyond those supplied.
func (d *ManualDice) Short() int { return d.short }

// Used is how many supplied rolls were consumed.
func (d *ManualDice) Used() int { return d.next }

// Err reports a supplied roll that did not fit its die, or a replayed roll
// asked for with other faces than recorded.
func (d *ManualDice) Err() error {
	if d.mismatch != "" {
		return fmt.Errorf("engine: dice: %s", d.mismatch)
	}
	return nil
}

// Rolls returns every roll made so far, in order.
func (d *ManualDice) Rolls() []Roll { return append([]Roll(nil), d.rolls...) }

// OrdersDigest is the digest of all orders of a phase that seeds its dice:
// SHA-256 over each side (sorted) and its order text, length-prefixed.
func OrdersDigest(orders map[Side]string) [32]byte {
	sides := make([]string, 0, len(orders))
	for s := range orders {
		sides = append(sides, string(s))
	}
	sort.Strings(sides)
	h := sha256.New()
	for _, s := range sides {
		fmt.Fprintf(h, "%d:%s%d:", len(s), s, len(orders[Side(s)]))
		h.Write([]byte(orders[Side(s)]))
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

// Left is how many supplied rolls are not yet used.
func (d *ManualDice) Left() int { return len(d.values) - d.next }
