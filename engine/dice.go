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
// playtests, and tests. When the list runs out it keeps answering 1 and
// counts the shortfall; a caller must check Short and discard the result of
// a resolution that ran short.
//
// The values of NewManualDice are faces of six-sided dice, the only dice
// the rulebooks here put on the table. A smaller die whose faces divide six
// is read off a d6 as players do: a d3 is half a d6 rounded up (1-2 is 1,
// 3-4 is 2, 5-6 is 3), a d2 is 1-3 and 4-6. Any other die is an error.
type ManualDice struct {
	values []int
	next   int
	short  int
	rolls  []Roll
	// mismatch records the first roll whose sides differ from a recorded
	// roll (see NewReplayDice).
	mismatch string
	sides    []int
	// d6 marks values that are d6 faces (NewManualDice).
	d6 bool
}

// NewManualDice returns dice that roll the given values in order. A value
// larger than the die rolled is an error reported by Err.
func NewManualDice(values ...int) *ManualDice {
	return &ManualDice{values: append([]int(nil), values...), d6: true}
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
		d.short++
		d.rolls = append(d.rolls, Roll{Sides: sides, Value: 1, Why: why})
		return 1
	}
	v := d.values[d.next]
	if d.d6 {
		f, err := D6Face(v, sides)
		if err != nil && d.mismatch == "" {
			d.mismatch = fmt.Sprintf("roll %d: %v (%s)", d.next+1, err, why)
		}
		if err == nil {
			v = f
		}
	}
	if d.sides != nil && d.sides[d.next] != sides && d.mismatch == "" {
		d.mismatch = fmt.Sprintf("roll %d was recorded as a d%d but asked for as a d%d (%s)", d.next+1, d.sides[d.next], sides, why)
	}
	if !d.d6 && (v < 1 || v > sides) && d.mismatch == "" {
		d.mismatch = fmt.Sprintf("roll %d is %d, not a face of a d%d (%s)", d.next+1, v, sides, why)
	}
	d.next++
	d.rolls = append(d.rolls, Roll{Sides: sides, Value: v, Why: why})
	return v
}

// D6Face reads a die of the given sides off the face v of a six-sided die,
// as manual dice do: a d6 is the face itself, a d3 half of it rounded up, a
// d2 1-3 and 4-6. A face outside 1-6, or a die a d6 cannot stand for, is an
// error.
func D6Face(v, sides int) (int, error) {
	switch {
	case v < 1 || v > 6:
		return 0, fmt.Errorf("%d is not a face of a d6", v)
	case sides < 1 || 6%sides != 0:
		return 0, fmt.Errorf("a d%d was asked for, which manual d6 dice cannot give", sides)
	}
	return (v*sides + 5) / 6, nil
}

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
