package main

// The rulesets register themselves with the engine when imported;
// engine/rulesets imports every one.
import _ "skagerrak/engine/rulesets"
