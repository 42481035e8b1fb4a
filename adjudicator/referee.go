package adjudicator

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"skagerrak/engine"
	"skagerrak/events"
)

// Spec describes a game to create.
type Spec struct {
	Game     string       `json:"game"`
	Ruleset  string       `json:"ruleset"`
	Setup    engine.Setup `json:"setup"`
	Players  []Player     `json:"players"`
	Referee  *Player      `json:"referee,omitempty"`
	Timing   Timing       `json:"timing"`
	Dice     string       `json:"dice"`
	Encrypt  bool         `json:"encrypt,omitempty"`
	HostFrom string       `json:"host_from,omitempty"`
	// GameIDs makes order files carry the game's Game-Id (see
	// GameCreated.GameIDs); skagerrak new sets it.
	GameIDs bool `json:"game_ids,omitempty"`
	// Software names the build creating the game (see GameCreated).
	Software string `json:"software,omitempty"`
}

// ValidGameID reports whether id can name a game (and its directory).
func ValidGameID(id string) error {
	if id == "" || len(id) > 64 {
		return fmt.Errorf("a game id is 1 to 64 characters")
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return fmt.Errorf("game id %q: use lower-case letters, digits, '-' and '_' only", id)
		}
	}
	return nil
}

// sharable says which sides of rs one player may hold together, for the
// error that refuses one key on two sides.
func sharable(rs engine.Ruleset) string {
	sh, ok := rs.(engine.SideSharer)
	if !ok {
		return ""
	}
	var groups []string
	for _, g := range sh.SharedSides() {
		var names []string
		for _, s := range g {
			names = append(names, string(s))
		}
		groups = append(groups, "both "+strings.Join(names, " and "))
	}
	return " (one player may hold " + strings.Join(groups, "; ") + ")"
}

// Check validates a Spec without writing anything, naming what is wrong
// and what would be valid.
func (s *Spec) Check() error {
	if err := ValidGameID(s.Game); err != nil {
		return err
	}
	rs, err := engine.Lookup(s.Ruleset)
	if err != nil {
		return err
	}
	if err := s.checkSetup(rs); err != nil {
		return err
	}
	if err := s.checkPlayers(rs); err != nil {
		return err
	}
	if err := s.checkKeys(rs); err != nil {
		return err
	}
	return s.checkDiceAndTiming()
}

// checkSetup checks the set-up's scenario, revision and options against
// the ruleset.
func (s *Spec) checkSetup(rs engine.Ruleset) error {
	if s.Setup.Scenario != "" {
		var ids []string
		for _, sc := range rs.Scenarios() {
			ids = append(ids, sc.ID)
		}
		if !slices.Contains(ids, s.Setup.Scenario) {
			return fmt.Errorf("ruleset %s has no scenario %q; valid: %s", s.Ruleset, s.Setup.Scenario, strings.Join(ids, ", "))
		}
	}
	if _, err := engine.RevisionOf(rs, s.Setup); err != nil {
		return err
	}
	var opts []string
	for _, o := range rs.Options() {
		opts = append(opts, o.ID)
	}
	for _, o := range s.Setup.Options {
		if !slices.Contains(opts, o) {
			return fmt.Errorf("ruleset %s has no option %q; valid: %s", s.Ruleset, o, strings.Join(opts, ", "))
		}
	}
	return nil
}

// checkPlayers checks that every side of the ruleset has exactly one
// player, with a mail address and a public key.
func (s *Spec) checkPlayers(rs engine.Ruleset) error {
	want := rs.Sides()
	seen := map[engine.Side]bool{}
	for _, p := range s.Players {
		if !slices.Contains(want, p.Side) {
			return fmt.Errorf("ruleset %s has no side %q; valid: %s", s.Ruleset, p.Side, joinSides(want))
		}
		if seen[p.Side] {
			return fmt.Errorf("side %s is given twice", p.Side)
		}
		seen[p.Side] = true
		if p.Address == "" || !strings.Contains(p.Address, "@") {
			return fmt.Errorf("side %s: %q is not a mail address", p.Side, p.Address)
		}
		if p.Fingerprint == "" || p.Key == "" {
			return fmt.Errorf("side %s has no public key", p.Side)
		}
	}
	for _, w := range want {
		if !seen[w] {
			return fmt.Errorf("side %s has no player; every side of %s needs one (%s)", w, s.Ruleset, joinSides(want))
		}
	}
	return nil
}

// checkKeys refuses one key on two sides (the referee's included), unless
// the ruleset lets one player hold both.
func (s *Spec) checkKeys(rs engine.Ruleset) error {
	fps := map[string]engine.Side{}
	all := append([]Player(nil), s.Players...)
	if s.Referee != nil {
		all = append(all, *s.Referee)
	}
	for _, p := range all {
		if o, dup := fps[p.Fingerprint]; dup && !engine.MayShare(rs, o, p.Side) {
			return fmt.Errorf("sides %s and %s have the same key %s; each needs its own%s", o, p.Side, p.Fingerprint, sharable(rs))
		}
		fps[p.Fingerprint] = p.Side
	}
	return nil
}

// checkDiceAndTiming checks the dice mode and the timing's durations.
func (s *Spec) checkDiceAndTiming() error {
	switch s.Dice {
	case "", "seeded", "manual":
	default:
		return fmt.Errorf("dice %q: valid: seeded, manual", s.Dice)
	}
	if s.Timing.Deadline <= 0 {
		return fmt.Errorf("the phase deadline must be positive")
	}
	if s.Timing.Reminder < 0 || s.Timing.Grace < 0 || s.Timing.MaxPause < 0 || s.Timing.FlagAfter < 0 || s.Timing.PauseLimit < 0 {
		return fmt.Errorf("reminder, grace, max pause, flag-after and pause limit cannot be negative")
	}
	return nil
}

// Start creates the game: GameCreated with the dice-secret commitment, the
// first phase, and each side's first report and order form.
func (g *Game) Start(s Spec, secret []byte, now time.Time, emit Emit) error {
	if g.Seq != 0 {
		return fmt.Errorf("adjudicator: game %s already exists", g.ID)
	}
	if err := s.Check(); err != nil {
		return err
	}
	g.secret = secret
	rs, _ := engine.Lookup(s.Ruleset)
	// The log names the revision the game is played under, whatever
	// revision later builds make current.
	s.Setup.Revision, _ = engine.RevisionOf(rs, s.Setup)
	if s.Dice == "" {
		s.Dice = "seeded"
	}
	// The set-up's draws come from the committed secret in every game: a
	// manual-dice game has no dice supplied before it exists, and its
	// phases take the dice supplied to them.
	setupDice := engine.NewSeededDice(secret, s.Game, "setup", [32]byte{})
	st, err := rs.New(s.Setup, setupDice)
	if err != nil {
		return fmt.Errorf("adjudicator: set-up of %s: %w", s.Ruleset, err)
	}
	dg, err := Digest(st)
	if err != nil {
		return err
	}
	c := sha256.Sum256(secret)
	players := append([]Player(nil), s.Players...)
	slices.SortFunc(players, func(a, b Player) int { return strings.Compare(string(a.Side), string(b.Side)) })
	gc := GameCreated{Game: s.Game, Ruleset: s.Ruleset, Setup: s.Setup, Players: players, Referee: s.Referee,
		Timing: s.Timing, Dice: s.Dice, Encrypt: s.Encrypt, HostFrom: s.HostFrom, GameIDs: s.GameIDs,
		SecretCommitment: hex.EncodeToString(c[:]), SetupRolls: setupDice.Rolls(), StateDigest: dg, Software: s.Software}
	if err := emit(EvGameCreated, gc); err != nil {
		return err
	}
	if err := g.open(now, emit); err != nil {
		return err
	}
	for _, side := range g.Sides() {
		if err := g.queue(MailReport, side, "", "", emit); err != nil {
			return err
		}
	}
	return nil
}

// Command is one referee command.
type Command struct {
	// Name is extend, shorten, deadline, pause, resume, resolve, end,
	// abandon, address, key or dice.
	Name string
	// Args are the command's arguments (a duration, a time, a side and an
	// address, dice values).
	Args []string
	// Player is the new registration for "key" and "address".
	Player *Player
	// By and Why are recorded with the command.
	By, Why string
}

// CommandHelp lists the referee commands, one per line.
const CommandHelp = `extend DURATION WHY...      move the open phase's deadline later (e.g. extend 24h travelling)
shorten DURATION WHY...     move it earlier (never before now)
deadline TIME WHY...        set it (RFC 3339, e.g. 2026-12-01T18:00:00Z)
pause WHY...                stop the clock (limited per game)
resume WHY...               restart it; the deadline moves by the time paused
resolve WHY...              resolve the open phase now, with default orders for missing sides
end WHY...                  end the game now, scoring it as it stands
abandon WHY...              end the game without a result
address SIDE ADDRESS WHY... send SIDE's mail to a new address, and its undelivered mail again
dice N N N...               supply manual dice to the resolution waiting for them,
                            each the face of the die it is for (a d10's 0 is 0)
dice clear WHY...           drop the manual dice in hand`

// Do carries out a referee command.
func (g *Game) Do(c Command, now time.Time, emit Emit) error {
	if g.Ended != nil && c.Name != "address" && c.Name != "key" {
		return fmt.Errorf("adjudicator: game %s is over", g.ID)
	}
	if c.Why == "" && c.Name != "dice" {
		return fmt.Errorf("adjudicator: %s: say why (it is recorded and told to the players)", c.Name)
	}
	do, ok := refereeCommands[c.Name]
	if !ok {
		return fmt.Errorf("adjudicator: unknown referee command %q; valid:\n%s", c.Name, CommandHelp)
	}
	return do(g, c, now, emit)
}

// refereeCommands maps each referee command's name to the method that
// carries it out (CommandHelp lists them for the referee).
var refereeCommands = map[string]func(g *Game, c Command, now time.Time, emit Emit) error{
	"extend":   (*Game).doMoveDeadline,
	"shorten":  (*Game).doMoveDeadline,
	"deadline": (*Game).doDeadline,
	"pause":    (*Game).doPause,
	"resume":   (*Game).doResume,
	"resolve": func(g *Game, c Command, now time.Time, emit Emit) error {
		return g.ForceResolve(now, c.By, c.Why, emit)
	},
	"end": func(g *Game, c Command, now time.Time, emit Emit) error {
		return g.end("ended by "+c.By+": "+c.Why, g.Rules.Result(g.State), now, emit)
	},
	"abandon": func(g *Game, c Command, now time.Time, emit Emit) error {
		return g.end("abandoned by "+c.By+": "+c.Why, nil, now, emit)
	},
	"address": (*Game).doAddress,
	"key":     (*Game).doAddress,
	"dice":    (*Game).doDice,
}

// needOpen refuses a command that changes the open phase when there is none.
func (g *Game) needOpen() error {
	if g.Opened == nil {
		return fmt.Errorf("adjudicator: game %s has no open phase", g.ID)
	}
	return nil
}

// doMoveDeadline carries out extend and shorten: the open phase's deadline
// moves by the duration given, never before now.
func (g *Game) doMoveDeadline(c Command, now time.Time, emit Emit) error {
	if err := g.needOpen(); err != nil {
		return err
	}
	if len(c.Args) < 1 {
		return fmt.Errorf("adjudicator: %s needs a duration such as 24h", c.Name)
	}
	d, err := time.ParseDuration(c.Args[0])
	if err != nil || d <= 0 {
		return fmt.Errorf("adjudicator: %s: %q is not a positive duration such as 24h or 90m", c.Name, c.Args[0])
	}
	if c.Name == "shorten" {
		d = -d
	}
	t := g.Opened.Deadline.Add(d)
	if t.Before(now) {
		t = now
	}
	return g.setDeadline(t, c, emit)
}

// doDeadline sets the open phase's deadline to the time given, never
// before now.
func (g *Game) doDeadline(c Command, now time.Time, emit Emit) error {
	if err := g.needOpen(); err != nil {
		return err
	}
	if len(c.Args) < 1 {
		return fmt.Errorf("adjudicator: deadline needs a time such as 2026-12-01T18:00:00Z")
	}
	t, err := time.Parse(time.RFC3339, c.Args[0])
	if err != nil {
		return fmt.Errorf("adjudicator: deadline: %q is not an RFC 3339 time such as 2026-12-01T18:00:00Z", c.Args[0])
	}
	if t.Before(now) {
		t = now
	}
	return g.setDeadline(t, c, emit)
}

// doPause stops the clock, within the game's pause limit.
func (g *Game) doPause(c Command, _ time.Time, emit Emit) error {
	if g.Paused != nil {
		return fmt.Errorf("adjudicator: game %s is already paused", g.ID)
	}
	if lim := g.Created.Timing.PauseLimit; g.Pauses >= lim {
		return fmt.Errorf("adjudicator: game %s has used its %d pause(s)", g.ID, lim)
	}
	if err := emit(EvGamePaused, GamePaused{By: c.By, Why: c.Why}); err != nil {
		return err
	}
	return g.notifyAll(emit)
}

// doResume restarts the clock.
func (g *Game) doResume(c Command, now time.Time, emit Emit) error {
	if g.Paused == nil {
		return fmt.Errorf("adjudicator: game %s is not paused", g.ID)
	}
	return g.resume(c.By, c.Why, now, emit)
}

// doAddress carries out address and key: a side's registration changes,
// the side is told, and its mail that did not arrive goes again.
func (g *Game) doAddress(c Command, _ time.Time, emit Emit) error {
	p, err := g.commandPlayer(c)
	if err != nil {
		return err
	}
	if _, ok := g.Player(p.Side); !ok {
		return fmt.Errorf("adjudicator: game %s has no side %q; valid: %s", g.ID, p.Side, joinSides(g.Sides()))
	}
	if other, ok := g.SideOf(p.Fingerprint); ok && other != p.Side && !engine.MayShare(g.Rules, other, p.Side) {
		return fmt.Errorf("adjudicator: key %s is already side %s's", p.Fingerprint, other)
	}
	if err := emit(EvSideChanged, SideChanged{Player: p, By: c.By, Why: c.Why}); err != nil {
		return err
	}
	if err := g.queue(MailNotice, p.Side, "", "", emit); err != nil {
		return err
	}
	// The side's mail that did not arrive goes again, to this address.
	return g.resend(p.Side, true, emit)
}

// commandPlayer is the registration an address or key command asks for:
// the one it carries, or the side's present one with the new address from
// its arguments.
func (g *Game) commandPlayer(c Command) (Player, error) {
	if c.Player != nil {
		return *c.Player, nil
	}
	if len(c.Args) < 2 {
		return Player{}, fmt.Errorf("adjudicator: address needs SIDE ADDRESS")
	}
	side := engine.Side(strings.ToLower(c.Args[0]))
	p, ok := g.Player(side)
	if !ok {
		return Player{}, fmt.Errorf("adjudicator: game %s has no side %q; valid: %s", g.ID, side, joinSides(g.Sides()))
	}
	if !strings.Contains(c.Args[1], "@") {
		return Player{}, fmt.Errorf("adjudicator: %q is not a mail address", c.Args[1])
	}
	p.Address = c.Args[1]
	return p, nil
}

// doDice supplies manual dice, or with "dice clear" drops those in hand.
func (g *Game) doDice(c Command, now time.Time, emit Emit) error {
	if len(c.Args) == 1 && strings.EqualFold(c.Args[0], "clear") {
		return g.clearDice(c, emit)
	}
	return g.addDice(c, now, emit)
}

func (g *Game) setDeadline(t time.Time, c Command, emit Emit) error {
	if err := emit(EvDeadlineChanged, DeadlineChanged{Phase: g.Opened.Phase, Deadline: t, By: c.By, Why: c.Why}); err != nil {
		return err
	}
	return g.notifyAll(emit)
}

// ParseCommand reads one referee command line: NAME ARGS... WHY...
func ParseCommand(line string) (Command, error) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return Command{}, fmt.Errorf("empty command")
	}
	c := Command{Name: strings.ToLower(f[0])}
	n := map[string]int{"extend": 1, "shorten": 1, "deadline": 1, "pause": 0, "resume": 0, "resolve": 0, "end": 0, "abandon": 0, "address": 2}
	if c.Name == "dice" {
		c.Args = f[1:]
		if len(c.Args) > 0 && strings.EqualFold(c.Args[0], "clear") {
			c.Args, c.Why = c.Args[:1], strings.Join(c.Args[1:], " ")
		}
		return c, nil
	}
	k, ok := n[c.Name]
	if !ok {
		return c, fmt.Errorf("unknown referee command %q; valid:\n%s", f[0], CommandHelp)
	}
	if len(f)-1 < k {
		return c, fmt.Errorf("%s needs %d argument(s); usage:\n%s", c.Name, k, CommandHelp)
	}
	c.Args = f[1 : 1+k]
	c.Why = strings.Join(f[1+k:], " ")
	return c, nil
}

// refereeMail carries out the commands of a signed referee mail.
func (g *Game) refereeMail(f engine.OrderFile, sub Submission, now time.Time, emit Emit) (Outcome, error) {
	cmds, errs := parseRefereeCommands(f, sub)
	if len(errs) > 0 {
		return g.reject(sub, Referee, "", "bad referee commands", errs, now, emit)
	}
	withheld := g.withheld(sub.Fingerprint, false)
	if err := emit(EvRefereeMail, RefereeMail{Text: sub.Text, Source: sub.Source, Signature: sub.Signature, Raw: sub.Raw, Fingerprint: sub.Fingerprint, Key: sub.Key,
		SigTime: sub.SigTime, Charset: sub.Charset, Unanswered: withheld, Encrypted: sub.Encrypted}); err != nil {
		return Outcome{}, err
	}
	results, failed, err := g.runRefereeCommands(cmds, now, emit)
	if err != nil {
		return Outcome{}, err
	}
	if err := emit(EvRefereeResult, RefereeResult{Lines: results}); err != nil {
		return Outcome{}, err
	}
	if withheld == "" {
		if err := g.queue(MailNotice, Referee, "", "", emit); err != nil {
			return Outcome{}, err
		}
	}
	if failed != nil {
		return Outcome{Status: StatusReferee, Side: Referee, Reason: failed.Error()}, nil
	}
	return Outcome{Status: StatusReferee, Side: Referee}, nil
}

// parseRefereeCommands reads the referee's order file into commands, each
// recorded as by the referee's key, with an error for each line that is not
// one (and one if there are none at all).
func parseRefereeCommands(f engine.OrderFile, sub Submission) ([]Command, []engine.LineError) {
	var cmds []Command
	var errs []engine.LineError
	for _, l := range engine.OrderLines(f.Body) {
		c, err := ParseCommand(l.Text)
		if err != nil {
			errs = append(errs, engine.LineError{Line: l.N, Text: l.Text, Msg: err.Error()})
			continue
		}
		c.By = "referee " + sub.Fingerprint
		cmds = append(cmds, c)
	}
	if len(errs) == 0 && len(cmds) == 0 {
		errs = append(errs, engine.LineError{Msg: "no commands", Valid: CommandHelp})
	}
	return cmds, errs
}

// runRefereeCommands carries out the commands in order; one that fails
// stops the rest, and the result lines tell the referee what was done, what
// failed and what was not tried. failed is the refusal; err is a fatal
// error that stops the mail's handling.
func (g *Game) runRefereeCommands(cmds []Command, now time.Time, emit Emit) (results []string, failed, err error) {
	for _, c := range cmds {
		line := c.Name + " " + strings.TrimSpace(strings.Join(c.Args, " ")+" "+c.Why)
		if failed != nil {
			results = append(results, "not done (an earlier command failed): "+line)
			continue
		}
		if err := g.Do(c, now, emit); err != nil {
			if errors.Is(err, events.ErrFatal) {
				return nil, nil, err
			}
			failed = err
			results = append(results, "refused: "+line+": "+strings.TrimPrefix(err.Error(), "adjudicator: "))
			continue
		}
		if w := g.DiceWanted(now); (c.Name == "dice" || c.Name == "resolve") && w != nil {
			line += "; still waiting: " + w.String()
		}
		results = append(results, "done: "+line)
	}
	return results, failed, nil
}
