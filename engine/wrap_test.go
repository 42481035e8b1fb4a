package engine

import "testing"

func TestWrapLinesKeepsIndentAndShortLines(t *testing.T) {
	in := "short\n  - one two three four five six\nx"
	want := "short\n  - one two\n    three four\n    five six\nx"
	if got := WrapLines(in, 14); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := WrapLines("a verylongwordindeed b", 6); got != "a\n  verylongwordindeed\n  b" {
		t.Errorf("long word: %q", got)
	}
}
