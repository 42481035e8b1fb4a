package hosttest

// The tests read and replay games of every ruleset in their own process
// too, as the binary does.
import (
	_ "skagerrak/engine/kampen"
	_ "skagerrak/engine/kriegsmarine"
	_ "skagerrak/engine/norge"
	_ "skagerrak/engine/norway1940"
	_ "skagerrak/engine/sweden43"
)
