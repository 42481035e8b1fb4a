// Package operator is what the host operator does to one game from the
// command line: submit an order file as if it came by mail (Submission),
// give a referee command (ParseReferee, Referee) or supply manual dice
// (AddDice), each printing the outcome.
package operator

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"skagerrak/adjudicator"
	"skagerrak/engine"
	"skagerrak/internal/gamespec"
	"skagerrak/internal/status"
)

// ErrRejected is an order file the game refused (submit exits 2).
var ErrRejected = errors.New("orders rejected")

// Submission is an order file submitted from the command line.
type Submission struct {
	Game, Side, File string
	// Sig is the armored detached signature's file; "" takes File.asc
	// if it is there, else File is cleartext-signed.
	Sig string
	// Unsigned is paper orders entered by the referee By.
	Unsigned bool
	By       string
}

// Read reads the order file and its signature, before any game is
// opened; a flag missing is an error saying which.
func (s *Submission) Read() (data []byte, sig string, err error) {
	if s.Side == "" {
		return nil, "", fmt.Errorf("submit: --side is required")
	}
	if data, err = os.ReadFile(s.File); err != nil {
		return nil, "", err
	}
	if s.Unsigned {
		if s.By == "" {
			return nil, "", fmt.Errorf("submit: --unsigned needs --by NAME (who entered the paper orders)")
		}
		return data, "", nil
	}
	path := s.Sig
	if path == "" {
		if _, err := os.Stat(s.File + ".asc"); err == nil {
			path = s.File + ".asc"
		}
	}
	if path == "" {
		return data, "", nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, "", err
	}
	return data, string(b), nil
}

// Submit records the order file (data, signed by sig) in h and prints
// the game's answer to w; ErrRejected if it refused them.
func (s *Submission) Submit(w io.Writer, h *adjudicator.Host, data []byte, sig string) error {
	r, err := h.SubmitFile(s.Game, engine.Side(strings.ToLower(s.Side)), data, sig, s.Unsigned, s.By)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s: %s\n", s.File, r.Status)
	if r.Reason != "" {
		fmt.Fprintf(w, "  %s\n", r.Reason)
	}
	for _, e := range r.Errors {
		fmt.Fprintf(w, "  %s\n", e.Error())
	}
	if r.Status == adjudicator.StatusRejected {
		return ErrRejected
	}
	return nil
}

// Build makes a referee command from the game as it stands.
type Build func(*adjudicator.Game) (adjudicator.Command, error)

// Do is a Build of a command made already.
func Do(c adjudicator.Command) Build {
	return func(*adjudicator.Game) (adjudicator.Command, error) { return c, nil }
}

// ParseReferee reads skagerrak referee's words after the game: a command
// of adjudicator.CommandHelp, or key SIDE KEYFILE WHY... (replace SIDE's
// public key, from the command line only).
func ParseReferee(game string, words []string) (Build, error) {
	if strings.ToLower(words[0]) != "key" {
		c, err := adjudicator.ParseCommand(strings.Join(words, " "))
		if err != nil {
			return nil, err
		}
		return Do(c), nil
	}
	if len(words) < 4 {
		return nil, fmt.Errorf("referee key: write referee GAME key SIDE KEYFILE WHY")
	}
	return func(g *adjudicator.Game) (adjudicator.Command, error) {
		side := engine.Side(strings.ToLower(words[1]))
		old, ok := g.Player(side)
		if !ok {
			return adjudicator.Command{}, fmt.Errorf("game %s has no side %q", game, side)
		}
		p, err := gamespec.Player(side, old.Address, words[2])
		if err != nil {
			return adjudicator.Command{}, err
		}
		return adjudicator.Command{Name: "key", Player: &p, Why: strings.Join(words[3:], " ")}, nil
	}, nil
}

// Referee carries out the referee command build makes from the game as it
// stands, and prints the game's status after it, as of now.
func Referee(w io.Writer, h *adjudicator.Host, game string, build Build, now func() time.Time) error {
	g, err := h.Game(game)
	if err != nil {
		return err
	}
	c, err := build(g)
	if err != nil {
		return err
	}
	if err := h.Referee(game, c); err != nil {
		return err
	}
	g, _ = h.Game(game)
	return status.Print(w, g, now())
}

// AddDice supplies the values to a manual-dice game, resolves what they
// let resolve, and prints the game's status: which dice the phase still
// waits for, if any.
func AddDice(w io.Writer, h *adjudicator.Host, game string, values []string, now func() time.Time) error {
	if err := h.Referee(game, adjudicator.Command{Name: "dice", Args: values}); err != nil {
		return err
	}
	if _, err := h.Tick(); err != nil {
		return err
	}
	g, _ := h.Game(game)
	return status.Print(w, g, now())
}
