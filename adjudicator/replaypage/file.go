package replaypage

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"skagerrak/engine"
)

// WriteFile builds the replay page of the log, or with a side that side's
// history from its mails alone, writes it to path (skagerrak replay), and
// says to w what it wrote.
func WriteFile(w io.Writer, l Log, side engine.Side, path string) error {
	var p *Page
	var err error
	if side != "" {
		p, err = BuildSide(l, side)
	} else {
		p, err = Build(l)
	}
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		return fmt.Errorf("replay: writing the page: %w", err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(w, "%s: replay of %s, %d phases, %.1f MB\n", path, p.Game, len(p.Phases), float64(b.Len())/1e6)
	return nil
}
