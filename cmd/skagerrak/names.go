package main

import (
	"fmt"
)

// count is n and the noun, plural unless n is 1: "1 phase", "9 phases".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// dice is "1 die", "2 dice".
func dice(n int) string {
	if n == 1 {
		return "1 die"
	}
	return fmt.Sprintf("%d dice", n)
}
