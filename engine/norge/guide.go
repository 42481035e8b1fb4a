package norge

import "skagerrak/engine"

// Guide implements engine.Guider: the player's guide, its order syntax
// printed from Verbs.
func (rules) Guide() string {
	prose, err := dataFS.ReadFile("data/guide.txt")
	if err != nil {
		panic("norge: the guide is missing from the data pack: " + err.Error())
	}
	return engine.WriteGuide(string(prose), Verbs)
}
