package engine

// Stage is one phase of a turn's sequence of play, as data: what it is
// called, what the order table allows in it, and who owes orders.
type Stage struct {
	// Name names the stage in phase IDs and states, e.g. "naval-german".
	Name string
	// Kind is the order table's phase kind (Verb.Phases); "" is Name.
	Kind string
	// Title says what happens in the stage, for phase titles.
	Title string
	// Owes lists the sides that owe orders, sorted. When it is empty,
	// Phasing says whether the phasing side owes them; when that is
	// false too, the ruleset works out who owes (a defence, a decision
	// asked for in person).
	Owes    []Side
	Phasing bool
}

// Owing lists the sides that owe orders in the stage when phasing is the
// side whose turn it is: a new slice, nil when the ruleset decides.
func (st Stage) Owing(phasing Side) []Side {
	switch {
	case len(st.Owes) > 0:
		return append([]Side(nil), st.Owes...)
	case st.Phasing:
		return []Side{phasing}
	}
	return nil
}

// PhaseKind is the order table's phase kind of the stage.
func (st Stage) PhaseKind() string {
	if st.Kind == "" {
		return st.Name
	}
	return st.Kind
}

// Sequence is a turn's stages in the order they are played.
type Sequence []Stage

// Index is the position of the stage named name, or -1.
func (q Sequence) Index(name string) int {
	for i, st := range q {
		if st.Name == name {
			return i
		}
	}
	return -1
}

// Named is the stage named name; the zero Stage when there is none.
func (q Sequence) Named(name string) Stage {
	if i := q.Index(name); i >= 0 {
		return q[i]
	}
	return Stage{}
}

// After is the position of the stage after stage i, and whether the turn
// ends with stage i (the next stage is then the first, 0).
func (q Sequence) After(i int) (next int, turnEnds bool) {
	if i+1 < len(q) {
		return i + 1, false
	}
	return 0, true
}

// GameOver is the Phase of a finished game: no orders are owed.
func GameOver(id, title string) Phase {
	return Phase{ID: id, Title: title, Over: true}
}
