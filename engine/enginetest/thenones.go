package enginetest

import "skagerrak/engine"

// OnesDice is the dice many rules tests were written with: manual dice
// (d6 faces, as engine.NewManualDice reads them) and, once those are spent,
// a 1 on every die asked for. The product never rolls so (engine.ManualDice
// stops the resolution at a die it does not have); a test uses it where its
// hand-computed outcome counts on the 1s, and Short says how many it took.
type OnesDice struct {
	*engine.ManualDice
	ones []engine.Roll
}

// ThenOnes returns dice that roll values as d6 faces, then 1s.
func ThenOnes(values ...int) *OnesDice {
	return &OnesDice{ManualDice: engine.NewManualDice(values...)}
}

// Roll implements engine.Dice.
func (d *OnesDice) Roll(sides int, why string) int {
	if d.Left() > 0 {
		return d.ManualDice.Roll(sides, why)
	}
	d.ones = append(d.ones, engine.Roll{Sides: sides, Value: 1, Why: why})
	return 1
}

// Short is how many 1s were rolled after the values given.
func (d *OnesDice) Short() int { return len(d.ones) }

// Wanted lists the rolls the 1s stood for, in order.
func (d *OnesDice) Wanted() []engine.Roll { return append([]engine.Roll(nil), d.ones...) }

// Rolls returns every roll made, the 1s included.
func (d *OnesDice) Rolls() []engine.Roll { return append(d.ManualDice.Rolls(), d.ones...) }
