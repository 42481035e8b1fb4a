// Package norway1940 is the ruleset of "Norway 1940", the area game of the
// 1940 Norwegian campaign: 21 turns, air, naval and land phases, hidden
// fleets with decoys, supply, three weather zones and sudden death.
//
// # Sides and phases
//
// The sides are "german" and "allied" (the Franco-British and the
// Norwegians). Each turn has two player-turns (5.1): the German, then the
// Allied. Each player-turn is one phase, "T04-german", "T04-allied", in
// which only the phasing side owes orders; the weather (6) and the
// reorganisation and supply phase (5.2.2) are resolved automatically when a
// player-turn opens. The other side's reactions in a player-turn come from
// the standing orders of its own last order file (keep, evade, react,
// continue), or from a short phase for each decision it asked to take in
// person (ask, below).
//
// # Decisions in person: the short phases
//
// A side that gave the standing order "ask" for a kind of decision is
// asked each time such a decision comes up in the opponent's player-turn:
// the resolution stops there and a short phase opens, owed by that side
// alone, "T04-german-react" (the first in the German player-turn of turn
// 4; later ones in the same player-turn are "T04-german-react2", "-react3",
// ...). Its title says what is to be decided; the side's report and View
// (View.Ask, a Question) show the situation as the rules let it see it at
// that moment and the valid decision lines, and its order form is filled
// in with the default. The phase accepts only these decision lines; any
// other line is an error citing the decision's rule:
//
//	evade | fight                      # ask evasion: the attacked fleet tries to evade or fights (9.14.5)
//	fight on | break off               # ask continue: your defending or reacting fleet won a round (9.14.5.1)
//	attack with A3 | pass              # ask react: a detected enemy fleet enters the box (9.14.4)
//	intercept Hamar 2 | pass           # ask interception: commit kept fighters over a raid,
//	                                   # one line a place, at most the fighters kept (8.9.3.1)
//	step IR14 | eliminate IR8          # ask losses (revision 2): your units beaten in a land
//	                                   # combat take its losses, one line a step or unit (10.5.6)
//
// One decision line is needed (interception: one intercept line a place,
// or pass; losses: one "step" line a step loss, a unit naming as many as
// it has steps, and one "eliminate" line a unit eliminated, as the
// question says).
//
// Resolving the short phase goes on exactly where the player-turn stopped
// (the player-turn is resolved again from its start with the same orders,
// the rolls already made and the decisions already taken, then with the
// short phase's dice) and finishes the player-turn, or stops at the next
// decision asked. A side that did not ask is never waited for, and with
// standing orders alone the phases are only T01-german, T01-allied, ....
//
// DefaultOrders of a short phase, what a side gets that sends nothing by
// the deadline, is the decision its standing orders give: evade as its
// "evade" order says, fight on as its "continue" order says (a fleet
// reacting under 9.14.4 fights its three rounds), attack with
// its strongest undetected fleet stronger than the enemy if "react on",
// intercept by the reconstructed procedure of 8.9.3.1 with its kept
// fighters, and take losses in the order of its "losses" order. With the same dice, a decision taken in person gives exactly
// what the equivalent standing order gives.
//
// A short phase is visible to the opponent, who waits for it, as a pause
// is at the table. So that it tells him nothing he cannot see, it opens on
// what he sees: an evasion question when he attacks a fleet, a continue
// question when the side's fleet (attacked, or reacting) wins a round, a
// reaction question when his
// detected fleet enters a box holding one of the side's undetected fleet
// markers (decoys too: then the only decision is pass), an interception
// question whenever he flies bomber, transport, interdiction or support
// missions (with no fighters kept or none in reach, pass), and a losses
// question when his attack beats two or more of the side's units that do
// not all die whatever the choice (the combat's dice and result are
// public).
//
// # Order syntax
//
// One order a line; words are separated by blanks; keywords, unit, fleet
// and area names are case-insensitive and units and areas have aliases
// (159, IR159, 159IR; Dombas, Dumbas). "#" starts a comment. Orders are
// carried out in the sequence of play whatever their order in the file:
// fleet movement, submarines, landings, naval combat, parachutes, recon,
// other air missions, land movement, land combat, works.
//
// Naval phase (9):
//
//	fleet G8 from Germany combat 6 transport 4 decoys 1 carry 163 S12 to South-2
//	                                   # form a fleet in port and sail (9.6, 9.13.1)
//	fleet A5 from UK combat 6 carriers 1 to Centre-2   # with an aircraft carrier (9.12)
//	fleet A9 from Bergen decoys 1 to Bergen   # a fleet marker kept in its port box (9.15.9)
//	fleet G8 to Centre-3               # move: any box of the same or an adjacent sea area (9.13)
//	fleet G8 to Trondheim              # enter a port box: dock at a friendly port, land at an enemy one (9.16)
//	fleet G8 split G9 transport 2 carry S12 to Stavanger   # split while moving (9.9)
//	fleet G8 merge G9                  # merge fleets in one box (9.9)
//	fleet A3 attack G8 [rounds 1-3]    # attack a detected enemy fleet in the box (9.14)
//	sub South-2 G8 [1-3]               # submarine markers look for an enemy fleet (9.11)
//
// German fleets are numbered G1, G2, ...; Allied fleets A1, A2, .... The
// ports are Germany, UK and the Norwegian port areas; the naval boxes are
// South-1 .. South-4, Centre-1 .. Centre-4 and North-1 .. North-4.
//
// Air phase (8):
//
//	air para FJ1 Stavanger             # parachute drop on a marked site (8.8, 8.11)
//	air recon South-2 G8 [1-3]         # look for an enemy fleet (8.9.1)
//	air transport 163 to Oslo [from Germany]   # German air transport (8.9.2)
//	air transport S12 S13 to Stjordal  # a transport marker carries two supply units
//	air patrol Oslo 2                  # fighters escort or patrol (8.9.3)
//	air bomb Hamar IR5 1               # bomb a land unit: blast markers (8.9.4.3)
//	air bomb South-2 A3 1              # bomb a detected fleet (9.13.8)
//	air bomb Stavanger airfield 1      # hit an airfield (8.10.3); "battery" for a coastal battery (15.3.1)
//	air bomb South-2 sub 1             # bomb deployed enemy submarines (9.11)
//	air interdict Dombas 1             # interdiction markers (10.3.6)
//	air support Evje 1                 # land support for the combat in an area (8.9.4.1)
//	air emergency S12 to Narvik        # Narvik emergency air supply (option 16.5)
//	air ferry Bardufoss 2              # carriers fly RAF points to a Norwegian airfield (8.12)
//
// The number at the end of bomb, interdict, support and patrol orders is a
// number of markers; a German bomber marker is worth 3.
//
// Land phase (10):
//
//	move 159 Oslo Hamar Elverum        # move along adjacent areas (10.3); the start may be named
//	rail 340 Oslo Hamar Tretten        # railroad movement (10.3.7)
//	move IR4 Bang Tretten high         # and hold the higher ground there (option 16.2)
//	climb IR5                          # take the higher ground where it stands (option 16.2)
//	attack Evje [with 159 169A] [retreat Evje] [fallback Kristiansand]
//	                                   # attack in an area you occupy, or a port your fleet lands
//	                                   # at this turn (10.5); "retreat" chooses where beaten
//	                                   # defenders go, "fallback" where your own beaten units go
//	                                   # (revision 2), among the adjacent areas free of enemy
//	                                   # units closest to a supply source (10.5.6)
//	build fieldwork 159                # fieldwork (13.3); "build fortify 159" a city (14.4)
//	repair 169E                        # repair a strongpoint (13.2.2) or a battery (15.3.2)
//
// Units that enter an area held by the enemy attack it without an attack
// order (10.3.2).
//
// Standing orders, for the opponent's next player-turn:
//
//	keep fighters 4                    # fighters kept to intercept (8.9.3.1)
//	evade weaker | evade always | evade never   # try to evade naval combat (9.14.5)
//	react on | react off               # attack detected fleets entering your boxes (9.14.4)
//	continue on | continue off         # fight on after winning a round as the defender (9.14.5)
//	losses IR14 IR8 | losses none      # the order your units take combat losses in, as attacker
//	                                   # this player-turn and as defender the next (10.5.6,
//	                                   # revision 2): each loss to the first still in the combat;
//	                                   # also the cargo lost with sunk transports (9.10)
//	ask evasion continue react interception losses   # decide these in person instead,
//	                                   # in short phases (losses from revision 2)
//	ask all | ask none                 # every kind of decision, or none (the default)
//
// An "ask" order replaces the list of decisions asked (evade, intercept,
// reaction, continuation and loss are accepted for the kinds); evade,
// continue, react, keep and losses still give the default of a decision
// asked (see "Decisions in person" above).
//
// # Rules revisions
//
// A game is played under the rules revision it was created with
// (Revisions; State.Revision, recorded from revision 2 on). Revision 2
// closes the anchor ports to landings on the invasion turn (9.16.1), gives
// the choices of 10.5.6 to their owners (the losses order, "ask losses",
// retreats towards the closest supply source with the attacker's choice
// among them, the retreat named for a landing), leaves eliminated units
// with 0 steps, supplies units the turn they land (7.4.3) and takes
// overstack losses by the owner's losses order (11.1.5), lets the owner
// choose his cargo losses (9.10), keeps units leaving the enemy's area in
// supply (10.5.1), bars land attacks on German-held ports before turn 6
// (18) and rolls no needless die for a fleet the batteries held in port
// (15.2.2). A game of
// revision 1 keeps revision 1's behaviour at each of these points.
//
// # Where the rulebook contradicts itself
//
// The worked examples decide the default reading; a game option selects
// the other (Options lists them all):
//
//   - Land combat: the 10.5.3 table (the 10.5.8 example's differential of
//     6 gives a step and a retreat), not the Game Tables page
//     (combat-table-page).
//   - Naval combat: +1 for every 4 points of differential or part of 4 (the
//     9.14.5 example gives +2 for 5), not for every full 4 points
//     (naval-bonus-floor).
//   - Coastal battery detection on 5-6 (15.2.1), not on a 6 as the table's
//     footnote says (cb-detect-six).
//   - Anchored fleets ready on 1-2 (9.15.2), not 1-3 as the second printed
//     box (anchored-1-3).
//   - Trondheim and Narvik garrisons withdraw on 2-6 (18), not surrender
//     as the printed table (garrison-surrender).
//   - Retreating units lose half their supplies (7.4.4), not all (10.5.6,
//     retreat-loses-supply).
//   - Land support adds its bonus (the Combined Arms note), not only on a
//     6 (8.9.4, support-roll).
//   - The Naval Interception Table's "-6 or less: 1 evades" as printed, or
//     1-6 (interception-monotone).
//   - German target locations for decisive victory: every VP location
//     (12.2.1), or the grey ports only (decisive-grey-ports).
//
// # Data
//
// The rulebook prints its tables but not its map, orders of battle or ports
// chart. The data pack in data/ holds everything the rules need, each line
// with its source: a rule number, or "reconstructed" with the reasoning.
// Rules lists every numbered section with its status.
package norway1940
