package kriegsmarine

import (
	"embed"

	"skagerrak/engine"
)

//go:embed data/guide.txt
var guideData embed.FS

// Guide implements engine.Guider: the player's guide, its order syntax
// printed from Verbs.
func (rules) Guide() string {
	prose, err := guideData.ReadFile("data/guide.txt")
	if err != nil {
		panic("kriegsmarine: the guide is missing from the data pack: " + err.Error())
	}
	return engine.WriteGuide(string(prose), Verbs)
}
