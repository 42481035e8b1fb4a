package kriegsmarine

import "skagerrak/engine"

// Guide implements engine.Guider: the player's guide, its order syntax
// printed from Verbs.
func (rules) Guide() string {
	return engine.WriteGuide(files.MustText("guide.txt"), Verbs)
}
