package events

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"unicode/utf8"
)

// CheckData checks that data, a record's JSON payload, is in the form the
// writer produces whatever the event type: no object holds a key twice,
// and every string is escaped exactly as json.Marshal escapes it (so
// "\u0067erman" or "germ\/an" for "german" is refused). Two byte strings
// that mean the same never both pass. It returns an error naming what is
// not canonical.
func CheckData(data []byte) error {
	s := &dataScanner{b: data}
	s.space()
	if err := s.value(); err != nil {
		return err
	}
	s.space()
	if s.i != len(s.b) {
		return fmt.Errorf("data has bytes after its value at offset %d", s.i)
	}
	return nil
}

// CheckSchema checks that a record's data is exactly the bytes the writer
// produces for its decoded value: decoded into v (a pointer to the event
// type's struct, zero) with every member a field of the struct, and encoded
// again, it must give the same bytes (so a member the type lacks, a
// repeated key, another escape, another member order or a zero member the
// writer omits are refused). It returns a *NonCanonicalError naming the
// record and what differs.
func CheckSchema(ev Event, v any) error {
	fail := func(format string, args ...any) error {
		return &NonCanonicalError{Seq: ev.Seq, Type: ev.Type, What: fmt.Sprintf(format, args...)}
	}
	raw, err := encodeData(ev.Data)
	if err != nil {
		return fail("%v", err)
	}
	if err := CheckData(raw); err != nil {
		return fail("%v", err)
	}
	if v == nil || reflect.TypeOf(v).Kind() != reflect.Pointer {
		return fail("no struct for the event type")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fail("the data does not decode as %s: %v", ev.Type, err)
	}
	again, err := encodeData(reflect.ValueOf(v).Elem().Interface())
	if err != nil {
		return fail("%v", err)
	}
	if !bytes.Equal(again, raw) {
		i := 0
		for i < len(raw) && i < len(again) && raw[i] == again[i] {
			i++
		}
		return fail("the data differs from what the writer writes for its value from byte %d: %s where the writer writes %s", i, excerpt(raw, i), excerpt(again, i))
	}
	return nil
}

// NonCanonicalError names a record whose data is not in the writer's form.
type NonCanonicalError struct {
	Seq  uint64
	Type string
	What string
}

func (e *NonCanonicalError) Error() string {
	return fmt.Sprintf("events: record %d (%s) is not canonical: %s", e.Seq, e.Type, e.What)
}

// excerpt quotes up to 40 bytes of b from i, for an error message.
func excerpt(b []byte, i int) string {
	if i >= len(b) {
		return "the end"
	}
	end := min(i+40, len(b))
	return fmt.Sprintf("%q", b[i:end])
}

// dataScanner walks JSON already known to be valid.
type dataScanner struct {
	b []byte
	i int
}

var errBadJSON = errors.New("data is not valid JSON")

func (s *dataScanner) space() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\n' || s.b[s.i] == '\r') {
		s.i++
	}
}

func (s *dataScanner) value() error {
	if s.i >= len(s.b) {
		return errBadJSON
	}
	switch s.b[s.i] {
	case '{':
		return s.object()
	case '[':
		s.i++
		s.space()
		if s.i < len(s.b) && s.b[s.i] == ']' {
			s.i++
			return nil
		}
		for {
			s.space()
			if err := s.value(); err != nil {
				return err
			}
			s.space()
			if s.i >= len(s.b) {
				return errBadJSON
			}
			s.i++
			if s.b[s.i-1] == ']' {
				return nil
			}
		}
	case '"':
		_, err := s.str()
		return err
	default:
		for s.i < len(s.b) && !bytes.ContainsRune([]byte(",]} \t\r\n"), rune(s.b[s.i])) {
			s.i++
		}
		return nil
	}
}

func (s *dataScanner) object() error {
	s.i++
	seen := map[string]bool{}
	s.space()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return nil
	}
	for {
		s.space()
		k, err := s.str()
		if err != nil {
			return err
		}
		if seen[k] {
			return fmt.Errorf("the key %q appears twice in one object", k)
		}
		seen[k] = true
		s.space()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return errBadJSON
		}
		s.i++
		s.space()
		if err := s.value(); err != nil {
			return err
		}
		s.space()
		if s.i >= len(s.b) {
			return errBadJSON
		}
		s.i++
		if s.b[s.i-1] == '}' {
			return nil
		}
	}
}

// str reads a string literal, requires it to be escaped as json.Marshal
// escapes its value, and returns the value.
func (s *dataScanner) str() (string, error) {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return "", errBadJSON
	}
	start := s.i
	s.i++
	plain := true
	for s.i < len(s.b) && s.b[s.i] != '"' {
		c := s.b[s.i]
		if c == '\\' {
			plain = false
			s.i++
		} else if c < 0x20 || c == '<' || c == '>' || c == '&' || c >= 0x80 {
			plain = false
		}
		s.i++
	}
	if s.i >= len(s.b) {
		return "", errBadJSON
	}
	s.i++
	lit := s.b[start:s.i]
	if plain {
		return string(lit[1 : len(lit)-1]), nil
	}
	var v string
	if err := json.Unmarshal(lit, &v); err != nil {
		return "", errBadJSON
	}
	want, _ := json.Marshal(v)
	if !utf8.Valid(lit) || !bytes.Equal(lit, want) {
		return "", fmt.Errorf("the string %s is not escaped as the writer escapes it (%s)", excerpt(lit, 0), excerpt(want, 0))
	}
	return v, nil
}
