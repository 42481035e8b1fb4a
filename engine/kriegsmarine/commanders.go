package kriegsmarine

import (
	"fmt"

	"skagerrak/engine"
)

// OptCommanders is the option of 10.0.
const OptCommanders = "commanders"

// CommanderDef is a commander marker (3.44, 10.1): the unit he sails with
// at first, and the die modifier to his injury roll when his ship sinks
// (10.31: Lütjens, Heye, Schmundt and Whitworth +2).
type CommanderDef struct {
	ID      string
	Name    string
	Side    engine.Side
	Unit    string // unit id, or "" for a fortress commander
	Fortess string // fortress name for Colonel Eriksen
	SinkMod int
	Source  string
}

// Commanders are the commander markers of the game. Source: 10.1, 10.12,
// 10.31, 10.32, 9.21; the ships of Heye, Schmundt, Whitworth,
// Warburton-Lee and Vian are reconstructed from April 1940.
var Commanders = []CommanderDef{
	{ID: "lutjens", Name: "Vice Admiral Lütjens", Side: German, Unit: "scharnhorst", SinkMod: 2, Source: "10.1 aboard Scharnhorst; 10.12 moves to Bismarck; 10.31 +2"},
	{ID: "heye", Name: "Captain Heye", Side: German, Unit: "hipper", SinkMod: 2, Source: "10.31; reconstructed: captain of Hipper"},
	{ID: "schmundt", Name: "Rear Admiral Schmundt", Side: German, Unit: "koln", SinkMod: 2, Source: "10.31; reconstructed: flag in Köln (Group 3, Bergen)"},
	{ID: "whitworth", Name: "Vice Admiral Whitworth", Side: Allied, Unit: "renown", SinkMod: 2, Source: "10.31; reconstructed: flag in Renown"},
	{ID: "warburtonlee", Name: "Captain Warburton-Lee", Side: Allied, Unit: "ddflot2", Source: "10.32; reconstructed: the 2nd Destroyer Flotilla (Hardy)"},
	{ID: "vian", Name: "Captain Vian", Side: Allied, Unit: "ddflot4", Source: "10.2, 10.32; reconstructed: Cossack, of the 4th Destroyer Flotilla"},
	{ID: "eriksen", Name: "Colonel Eriksen", Side: Allied, Fortess: "Oscarsborg", Source: "10.1, 9.21: commands the Oscarsborg fortress"},
}

// CommanderInjury is the Commander Injury Table (PAC #3, 10.3), 1d6 plus
// 2 for the four admirals and captains of 10.31 when their ship sinks.
// Source: reconstructed — the chart is not transcribed.
var CommanderInjury = engine.MustTable("Commander Injury Table",
	engine.TableRow[string]{Lo: 1, Hi: 4, Result: "unharmed"},
	engine.TableRow[string]{Lo: 5, Hi: 5, Result: "wounded"},
	engine.TableRow[string]{Lo: 6, Hi: 20, Result: "killed"},
)

// Commander is where a commander is now: Unit is his ship's id ("" once
// wounded or dead), Status "aboard", "wounded" or "killed".
type Commander struct {
	ID     string `json:"id"`
	Unit   string `json:"unit,omitempty"`
	Status string `json:"status"`
}

func commanderDef(id string) CommanderDef {
	for _, c := range Commanders {
		if c.ID == id {
			return c
		}
	}
	panic("kriegsmarine: unknown commander " + id)
}

// placeCommanders puts the commanders with their units (10.11, 10.12).
func (s *State) placeCommanders() {
	if !s.has(OptCommanders) {
		return
	}
	for _, c := range Commanders {
		unit := c.Unit
		if c.ID == "lutjens" && s.unit("bismarck").Where != AtOut {
			unit = "bismarck" // 10.12
		}
		if unit != "" && s.unit(unit).Where == AtOut {
			continue // his ship is not in this game
		}
		s.Commanders = append(s.Commanders, Commander{ID: c.ID, Unit: unit, Status: "aboard"})
	}
}

// commanded reports whether a commander is aboard unit id.
func (s *State) commanded(id string) bool {
	for _, c := range s.Commanders {
		if c.Status == "aboard" && c.Unit == id {
			return true
		}
	}
	return false
}

func (s *State) anyCommanded(ids []string) bool {
	for _, id := range ids {
		if s.commanded(id) {
			return true
		}
	}
	return false
}

// evasionMod is the commanders' modifier to an evasion roll (10.2): -1 if
// the evaders have one, +1 if the trackers have one, 0 if both or neither.
func (s *State) evasionMod(evaders, trackers []string) int {
	m := 0
	if s.anyCommanded(evaders) {
		m--
	}
	if s.anyCommanded(trackers) {
		m++
	}
	return m
}

// eriksen reports whether Colonel Eriksen commands Oscarsborg (9.21, 10.1).
func (s *State) eriksen() bool {
	for _, c := range s.Commanders {
		if c.ID == "eriksen" && c.Status == "aboard" {
			return true
		}
	}
	return false
}

// injuries rolls the Commander Injury Table for every commander aboard
// one of ids (10.13, 10.3), and for Eriksen if fort is true; a commander
// whose ship sank and who is unharmed moves to another surface ship of his
// side in the hex, or goes down with her (10.31, 10.32).
func (s *State) injuries(ids []string, fort bool, h engine.Hex, dice engine.Dice) {
	for i := range s.Commanders {
		c := &s.Commanders[i]
		cd := commanderDef(c.ID)
		if c.Status != "aboard" {
			continue
		}
		if !(contains(ids, c.Unit) || (fort && c.ID == "eriksen")) {
			continue
		}
		sunk := c.Unit != "" && s.unit(c.Unit).Where == AtSunk
		roll := dice.Roll(6, "commander injury (10.3)")
		mod := 0
		if sunk {
			mod = cd.SinkMod
		}
		res := CommanderInjury.Lookup(roll + mod)
		if sunk && (c.ID == "warburtonlee" || c.ID == "vian") {
			res = "killed" // 10.32
		}
		if res == "unharmed" && sunk {
			moved := false
			for _, id := range s.onMap(cd.Side, h, func(d *UnitDef) bool { return d.Surface() }) {
				if !s.commanded(id) {
					c.Unit, moved = id, true
					break
				}
			}
			if !moved {
				res = "killed" // 10.31: no other ship in the hex
			}
		}
		text := fmt.Sprintf("%s: rolled %d%+d, %s", cd.Name, roll, mod, res)
		if res == "unharmed" && sunk {
			text += ", moves to " + def(c.Unit).Name
		}
		if res != "unharmed" {
			c.Status, c.Unit = res, ""
		}
		s.logf("both", "combat", h.String(), "10.3", "Commander injury: %s.", text)
	}
}
