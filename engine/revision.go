package engine

import "fmt"

// Rules revisions: never break a game in progress.
//
// A game is played, and replayed by anyone who verifies it, under the rules
// revision it was created with. Revision 1 is each ruleset's rules as first
// released. The policy, for everyone who changes a ruleset:
//
//   - A change that alters any outcome of any game (a result, a roll asked
//     for, an order accepted or refused, anything in a View) is declared
//     as a named Change of the next revision, saying what changed and
//     citing the rule (the ruleset's Revisions are built from its changes,
//     RevisionsOf), and keeps the old behaviour for games of earlier
//     revisions: rev.Has(change) at the point that changed, or the old
//     function kept beside the new one.
//   - The state records its revision only from revision 2 on (field
//     "revision", omitted for revision 1), so that states of games made
//     before revisions existed keep their digests.
//   - Before the change, record finished games of the current revision
//     under cmd/skagerrak/testdata/logs (see its README); every later build
//     must verify them.
//   - A change that alters nothing (a clearer error message, a faster
//     function) needs no revision; the checked-in logs prove that it
//     altered nothing.
//
// Setup.Revision 0 asks New for the current revision. The adjudicator
// records the revision explicitly in every new game, and replays a game
// whose GameCreated names none (it was made before revisions) as
// revision 1.

// Revision is one revision of a ruleset's rules.
type Revision struct {
	// N numbers the revision, from 1.
	N int `json:"n"`
	// Changes says what the revision changed, one line a rule.
	Changes []string `json:"changes"`
}

// Change is one change a rules revision made. A ruleset declares each as
// a named value, asks for it where the rules fork (rev.Has(change)), and
// builds its revision list from them (RevisionsOf).
type Change struct {
	// In is the revision that brought the change.
	In Rev
	// Text says what changed, in one line citing the rule.
	Text string
}

// Rev is the rules revision a game is played under.
type Rev int

// RevOf is the revision a state records: recorded, or 1 when it records
// none (0: a game of revision 1, or one made before revisions existed).
func RevOf(recorded int) Rev {
	if recorded < 1 {
		return 1
	}
	return Rev(recorded)
}

// Recorded is the revision a state records for a game of revision r: none
// (0) for revision 1, so that states of games made before revisions
// existed keep their digests.
func (r Rev) Recorded() int {
	if r <= 1 {
		return 0
	}
	return int(r)
}

// Has reports whether a game of revision r plays under change c.
func (r Rev) Has(c Change) bool { return r >= c.In }

// RevisionsOf is the revision list of a ruleset whose revisions made
// changes, oldest first: revision 1 is the rules as first released, and
// each later one lists its changes in the order given.
func RevisionsOf(changes ...Change) []Revision {
	out := []Revision{{N: 1, Changes: []string{"the rules as first released"}}}
	for _, c := range changes {
		for Rev(len(out)) < c.In {
			out = append(out, Revision{N: len(out) + 1})
		}
		r := &out[c.In-1]
		r.Changes = append(r.Changes, c.Text)
	}
	return out
}

// Reviser is implemented by rulesets with more than one revision. A
// ruleset that does not implement it has only revision 1.
type Reviser interface {
	// Revisions lists every revision, oldest first, numbered 1, 2, ...;
	// the last is the one new games get.
	Revisions() []Revision
}

// Revisions lists a ruleset's revisions, oldest first.
func Revisions(r Ruleset) []Revision {
	if rv, ok := r.(Reviser); ok {
		if rs := rv.Revisions(); len(rs) > 0 {
			return rs
		}
	}
	return RevisionsOf()
}

// CurrentRevision is the revision new games of a ruleset get.
func CurrentRevision(r Ruleset) int {
	rs := Revisions(r)
	return rs[len(rs)-1].N
}

// RevisionOf is the revision a Setup asks of ruleset r: its Revision, or
// the current one when that is 0. It is an error naming the valid
// revisions when r has no such revision.
func RevisionOf(r Ruleset, s Setup) (int, error) {
	cur := CurrentRevision(r)
	switch {
	case s.Revision == 0:
		return cur, nil
	case s.Revision < 1 || s.Revision > cur:
		return 0, fmt.Errorf("%s has no rules revision %d; valid: 1 to %d", r.Name(), s.Revision, cur)
	}
	return s.Revision, nil
}

// Played is the Setup a recorded game is replayed with: a game recorded
// before revisions existed (Revision 0) is played under revision 1.
func (s Setup) Played() Setup {
	if s.Revision == 0 {
		s.Revision = 1
	}
	return s
}
