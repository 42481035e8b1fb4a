package norway1940

import "skagerrak/engine"

// Guide implements engine.Guider: the player's guide, its order syntax
// printed from Verbs.
func (rules) Guide() string {
	prose, err := dataFS.ReadFile("data/guide.txt")
	if err != nil {
		panic("norway1940: the guide is missing from the data pack: " + err.Error())
	}
	return engine.WriteGuide(string(prose), Verbs)
}
