// Package kampen is the ruleset of "Kampen om Norge", scenario 2:
// Gudbrandsdalen og Østerdalen, a card-driven area game of the 1940
// campaign in the valleys north of Oslo. Germany must hold Lillehammer,
// Hamar, Oppdal and Tynset when it draws the last card of its deck; Norway
// and the Allies win together if they still hold one of them.
//
// The rulebook is a Norwegian text without its board, card faces or dice.
// The land areas, their borders, the faces of the combat die, the
// reinforcement symbols of the cards and every card effect the text does
// not state are reconstructed in data/ and marked so; Rules lists every
// section of the text with its status.
//
// # Sides and phases
//
// The sides are "german", "norwegian" and "allied": the three-player game.
// Two players play it by one person holding both the Norwegian and the
// Allied keys (text 1.4). Each player's round (Germany, Norway, the Allies,
// then Germany again) opens up to three phases of the adjudicator:
//
//	R03-german-move        the phasing side moves and commits its attack cards
//	R03-german-defend      the other camp answers: sabotage and flight (in
//	                       the German round), defence cards, retreats; then
//	                       every combat is fought
//	R03-german-reinforce   the phasing side trades cards for battalions,
//	                       places them, and draws new cards
//
// The defend phase is opened only when someone has a choice: in the German
// round Norway owes orders when any German group moved, the Allies when
// they defend an area; in the Norwegian and Allied rounds Germany owes them
// when it is attacked. Decisions the text takes in the middle of a combat
// (the German step-3 reaction cards, Ingeniørkompani against a block, the
// Ubåt in the German reinforcement phase) are standing orders given in
// advance.
//
// # Order syntax
//
// One order a line; words are separated by blanks; orders, area and card
// names are case-insensitive, Norwegian letters may be written as ASCII
// (Dombås, dombas, Dombaas) and cards have English aliases (sprengt-bro,
// "blown-bridge"; veisperring, roadblock). "#" starts a comment. N is a
// number of battalions and defaults to 1.
//
// Movement (own round, phase 1):
//
//	move Gjovik Lillehammer 3          # a group moves to a neighbouring area (4.1);
//	                                   # into an enemy area it attacks (4.2)
//	rapid Kongsvinger Elverum Rena 2   # Rask forflytning: one group up to two areas
//	para Oslo Tynset                   # Fallskjermtropp (German): one battalion, up to 3 areas
//	attack Lillehammer panzer artilleri  # step-1 cards for that combat (5.3.1); the
//	                                   # order of attack lines is the order of combat
//	attack Hamar bombefly first Elverum  # the group from Elverum loses first (5.3.6)
//	react Lillehammer jagerbomber speidertropp  # German step-3 reactions, played only
//	                                   # if they cancel a defender's card (5.3.3)
//	engineer on                        # German: answer each Veisperring or Sprengt bro
//	                                   # with an Ingeniørkompani while one is held (4.4)
//	losses norwegian                   # German: who loses first in a joint defence
//	                                   # when Norway and the Allies disagree (5.3.6)
//
// Defence (the other camp's answer, phases 1-2):
//
//	block veisperring Hamar from Elverum   # Norway: up to 2 battalions of that group go back
//	block sprengt-bro Hamar            # Norway: every group moving into Hamar goes back
//	flee Hamar Elverum                 # Norway: Rask forflytning out of an attacked area
//	defend Hamar bakhold               # step-2 cards for that combat (5.3.2)
//	retreat Hamar Elverum              # where to go if the defence is lost (5.3.8)
//	losses allied                      # Norway/Allies: who loses first in a joint defence
//
// Reinforcement and new cards (own round, phases 3-4):
//
//	trade veisperring sprengt-bro      # trade cards: 3 symbols a battalion (6)
//	place Oslo 2                       # place battalions (6.1-6.3)
//	discard artilleri                  # the card to discard if none was used (7)
//	submarine on                       # Allied: play Ubåt in the German reinforcement phase
//
// An empty order file is always valid: no movement, no cards. A later
// valid submission for the same phase replaces an earlier one.
package kampen
