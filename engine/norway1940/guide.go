package norway1940

import (
	"strings"

	"skagerrak/engine"
)

// Guide implements engine.Guider: the player's guide, its order syntax
// printed from Verbs and the answers of decisions in person from
// Decisions.
func (rules) Guide() string {
	prose := strings.Replace(files.MustText("guide.txt"), "{{decisions}}\n", Decisions.Syntax(), 1)
	return engine.WriteGuide(prose, Verbs)
}
