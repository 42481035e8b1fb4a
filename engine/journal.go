package engine

import "iter"

// Seer is one entry of a fog-of-war Journal: it says whether a side may
// see it. Each ruleset's entry type carries its own facts (turn, step,
// rule, text) and keeps its own JSON, so that states recorded before the
// Journal existed keep their digests.
type Seer interface {
	SeenBy(side Side) bool
}

// Journal is a game's record of what happened, oldest first, every entry
// saying which sides may see it. A side's View takes the entries For it;
// its report is rendered from those only.
type Journal[E Seer] []E

// Add appends e and returns it in place, for a caller that fills it in
// further.
func (j *Journal[E]) Add(e E) *E {
	*j = append(*j, e)
	return &(*j)[len(*j)-1]
}

// For yields, oldest first, the entries side may see.
func (j Journal[E]) For(side Side) iter.Seq[E] {
	return func(yield func(E) bool) {
		for _, e := range j {
			if e.SeenBy(side) && !yield(e) {
				return
			}
		}
	}
}

// SeenByOne is the visibility of an entry addressed to one side: to ""
// is seen by every side, else only by side to.
func SeenByOne(to, side Side) bool {
	return to == "" || to == side
}
