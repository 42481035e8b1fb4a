package norway1940

import (
	"slices"
	"strings"

	"skagerrak/engine"
	"skagerrak/engine/picture"
)

var _ engine.WholePicturer = Ruleset{}

// PictureWhole implements engine.WholePicturer: the map with both sides'
// land units and fleets where they are, each fleet with its contents (as
// its own side knows it), drawn as the German map draws them, the German
// forces as squares, the Allied ones as diamonds, every fleet shown as
// detected.
func (r Ruleset) PictureWhole(st engine.State) ([]byte, error) {
	return wholeMap(r.View(st, German).(*View), r.View(st, Allied).(*View)).PNG()
}

// wholeMap merges each side's own forces from its View into one View and
// draws it.
func wholeMap(german, allied *View) *picture.AreaMap {
	v := *german
	v.Units, v.Fleets, v.Ask = nil, nil, nil
	for _, sv := range []*View{german, allied} {
		for _, u := range sv.Units {
			if u.Side == sv.Side {
				v.Units = append(v.Units, u)
			}
		}
		for _, f := range sv.Fleets {
			if f.Side == sv.Side {
				c := *f
				c.Detected = c.Side == Allied // drawn as the enemy's, contents shown
				v.Fleets = append(v.Fleets, &c)
			}
		}
	}
	m := mapPicture(&v, German)
	m.Title = "Norway 1940 - the whole game, fog lifted"
	words := strings.NewReplacer("Your land units:", "German land units:", "Your fleets:", "German fleets:",
		"Enemy land units seen:", "Allied land units:", "Enemy fleet markers:", "Allied fleets:",
		"Embarked:", "German units embarked:", "Parachute pool:", "German parachute pool:", "To come:", "German units to come:",
		"Your air markers", "German air markers", ": detected, ", ": ")
	for i, n := range m.Notes {
		m.Notes[i] = words.Replace(n)
	}
	for i, it := range m.Legend {
		switch it.Text {
		case "Your forces (number of units)":
			m.Legend[i].Text = "German forces (number of units)"
		case "The enemy, as you know him":
			m.Legend[i].Text = "Allied forces"
		case "fleet, detected":
			m.Legend[i].Text = "Allied fleet"
		}
	}
	m.Legend = slices.DeleteFunc(m.Legend, func(it picture.LegendItem) bool { return it.Text == "fleet marker, undetected" })
	return m
}
