package engine

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxListBytes bounds a list of valid values written into an error, so
// that it fits whole in the error's "valid:" field (the log keeps 200
// bytes of it).
const MaxListBytes = 190

// CutList joins items with ", " into at most max bytes, cutting only
// between whole items: what does not fit is counted, as in
// "Bergen, Narvik … and 12 more". A max of 0 or less means MaxListBytes.
func CutList(items []string, max int) string {
	if max <= 0 {
		max = MaxListBytes
	}
	var b strings.Builder
	for i, it := range items {
		more := ""
		if rest := len(items) - i - 1; rest > 0 {
			more = fmt.Sprintf(" … and %d more", rest)
		}
		sep := ""
		if i > 0 {
			sep = ", "
		}
		if i > 0 && b.Len()+len(sep)+len(it)+len(more) > max {
			return b.String() + fmt.Sprintf(" … and %d more", len(items)-i)
		}
		b.WriteString(sep + it)
	}
	return b.String()
}

// FitList shortens a ", "-separated list s to at most max bytes, cutting
// only between whole items (see CutList); a shorter s is returned as it
// is. Text that is no list is cut between words instead, never inside
// one, and marked "…".
func FitList(s string, max int) string {
	if len(s) <= max {
		return s
	}
	items := strings.Split(s, ", ")
	if len(items) > 1 {
		if out := CutList(items, max); len(out) <= max {
			return out
		}
	}
	cut := max - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if i := strings.LastIndexFunc(s[:cut], unicode.IsSpace); i > 0 {
		cut = i
	}
	return strings.TrimRightFunc(s[:cut], unicode.IsSpace) + "…"
}

// EditDistance is the Levenshtein distance between a and b, compared
// without case, counted in letters (runes).
func EditDistance(a, b string) int {
	ra, rb := []rune(strings.ToLower(a)), []rune(strings.ToLower(b))
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// closeEnough is the largest edit distance a suggestion may have from a
// word of n letters: one typo in a short word, two in a longer one.
func closeEnough(n int) int {
	switch {
	case n <= 2:
		return 0
	case n <= 5:
		return 1
	}
	return 2
}

// DidYouMean returns the candidates nearest to word within a small edit
// distance (one letter for words of up to five letters, two beyond), in
// the candidates' order; nil if none is that close. A candidate equal to
// word but for case is the only answer.
func DidYouMean(word string, candidates []string) []string {
	limit := closeEnough(utf8.RuneCountInString(word))
	best := limit + 1
	var out []string
	for _, c := range candidates {
		d := EditDistance(word, c)
		switch {
		case d < best:
			best, out = d, []string{c}
		case d == best && !containsString(out, c):
			out = append(out, c)
		}
	}
	if best > limit {
		return nil
	}
	return out
}

// Suggest is the "valid:" text for an unknown word among candidates: the
// candidates listed whole (CutList), led by "did you mean X?" when some are
// within a small edit distance of word (DidYouMean).
func Suggest(word string, candidates []string) string {
	near := DidYouMean(word, candidates)
	if len(near) == 0 {
		return CutList(candidates, 0)
	}
	if len(near) > 3 {
		near = near[:3]
	}
	prefix := "did you mean " + strings.Join(near, " or ") + "? ("
	return prefix + CutList(candidates, MaxListBytes-len(prefix)-1) + ")"
}
