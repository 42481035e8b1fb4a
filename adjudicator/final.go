package adjudicator

import (
	"encoding/json"
	"fmt"
	"sort"

	"skagerrak/engine"
)

// FinalSchema names the version of the JSON copy attached to the final
// report.
const FinalSchema = "skagerrak-final/1"

// FinalJSON is the machine-readable copy of the final report, attached to
// it as report.json. It exists only once the game has ended, when every
// secret of the game is revealed to every side anyway: the side's final
// View, the result and points, the whole final state, every phase's
// orders and the dice secret.
type FinalJSON struct {
	Schema  string      `json:"schema"`
	Game    string      `json:"game"`
	Ruleset string      `json:"ruleset"`
	Side    engine.Side `json:"side"`
	// Revision is the rules revision the game was played under.
	Revision int `json:"revision"`
	// Ended says why the game ended: "over" (the rules ended it), "ended by
	// NAME: reason" or "abandoned by NAME: reason".
	Ended string `json:"ended"`
	// Result is the outcome with each side's points; null when the game
	// was abandoned, or ended by the referee before the rules gave one.
	Result *engine.Result `json:"result"`
	// View is the side's View of the final state, in the ruleset's shape
	// (as the view of report.json).
	View     engine.View   `json:"view"`
	Revealed FinalRevealed `json:"revealed"`
	// Moves are the resolved phases in order, each with every side's
	// orders as they were played.
	Moves []FinalMove `json:"moves"`
	// Secret is the hex dice secret, whose SHA-256 the game's creation
	// committed to; with the log it lets anyone check every roll.
	Secret string `json:"secret"`
	// Receipt names the log's last record when the report was written
	// (see LogReceipt).
	Receipt *LogReceipt `json:"receipt,omitempty"`
}

// FinalRevealed is what the end of the game reveals.
type FinalRevealed struct {
	// Text is the ruleset's description of the finished game, as the
	// final report prints it ("" when the ruleset writes none).
	Text string `json:"text,omitempty"`
	// State is the whole final state, in the ruleset's own shape: what
	// every side knew and what none did.
	State engine.State `json:"state"`
}

// FinalMove is one resolved phase of the game.
type FinalMove struct {
	Phase string `json:"phase"`
	Title string `json:"title"`
	// Why says how the phase came to be resolved: "all-in", "deadline" or
	// "forced by NAME: reason".
	Why string `json:"why"`
	// Orders are each side's order lines as played.
	Orders map[engine.Side]string `json:"orders"`
	// Defaulted are the sides that missed the phase and played their
	// default orders.
	Defaulted []engine.Side `json:"defaulted,omitempty"`
	// Rolls is how many dice the phase rolled.
	Rolls int `json:"rolls"`
}

// EndedText says why the game ended for people: "over" is the rules'
// doing, the rest says who ended it and why.
func EndedText(why string) string {
	if why == "over" {
		return "the rules ended it"
	}
	return why
}

// finalReport renders the final report of side: its text's template data
// and its JSON copy. Only an ended game has one.
func finalReport(g *Game, q MailQueued) (map[string]any, Attachment, error) {
	side := q.Side
	if g.Ended == nil {
		return nil, Attachment{}, fmt.Errorf("final report before the game ended")
	}
	res := ""
	if g.Ended.Result != nil {
		res = g.Ended.Result.Summary
	}
	reveal := ""
	var b string
	if rv, ok := g.Rules.(engine.Revealer); ok {
		reveal = rv.Reveal(g.State)
		b = reveal
	} else {
		js, _ := json.MarshalIndent(g.State, "", "  ")
		b = "The final state of the game:\n\n" + string(js)
	}
	data := map[string]any{"Game": g.ID, "Title": g.Rules.Title(), "Side": side, "Why": EndedText(g.Ended.Why), "Result": res,
		"Body": b, "Secret": g.Ended.Secret, "Moves": movesText(g), "Schema": FinalSchema, "Receipt": g.headReceipt(q),
		"Replay": ReplayName(g.ID), "ReplayCommand": ReplayCommand(g.ID)}
	f := FinalJSON{Schema: FinalSchema, Game: g.ID, Ruleset: g.Rules.Name(), Side: side, Revision: g.Revision(),
		Ended: g.Ended.Why, Result: g.Ended.Result, View: g.Rules.View(g.State, side),
		Revealed: FinalRevealed{Text: reveal, State: g.State}, Moves: finalMoves(g), Secret: g.Ended.Secret, Receipt: g.headReceipt(q)}
	js, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return nil, Attachment{}, fmt.Errorf("the final report's JSON copy: %w", err)
	}
	return data, Attachment{Name: "report.json", ContentType: "application/json", Data: append(js, '\n')}, nil
}

func finalMoves(g *Game) []FinalMove {
	out := make([]FinalMove, 0, len(g.Moves))
	for _, mv := range g.Moves {
		orders := make(map[engine.Side]string, len(mv.Orders))
		for s, o := range mv.Orders {
			orders[s] = o
		}
		def := append([]engine.Side(nil), mv.Defaulted...)
		sort.Slice(def, func(i, j int) bool { return def[i] < def[j] })
		out = append(out, FinalMove{Phase: mv.Phase, Title: mv.Title, Why: mv.Why, Orders: orders, Defaulted: def, Rolls: mv.Rolls})
	}
	return out
}
