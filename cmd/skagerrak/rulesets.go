package main

// The rulesets register themselves with the engine when imported.
import (
	_ "skagerrak/engine/kampen"
	_ "skagerrak/engine/kriegsmarine"
	_ "skagerrak/engine/norge"
	_ "skagerrak/engine/norway1940"
	_ "skagerrak/engine/sweden43"
)
