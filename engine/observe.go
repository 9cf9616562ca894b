package engine

// Visible is the event e as seat sees it (RULES.md section 10), and whether
// seat sees it at all. Everyone sees every play, every color named, the
// mini-pile's face-up cards, who draws how many, challenges and their
// verdicts, swaps, points and every other event of the log; only the drawer
// sees a drawn card (EvDrawCard). A hand shown in a challenge is seen by the
// challenger alone, through View.Revealed at the EvChallenge event.
func Visible(seat int, e Event) (Event, bool) {
	if e.Kind == EvDrawCard && e.Player != seat {
		return Event{}, false
	}
	return e, true
}
