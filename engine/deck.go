package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// Deck limits. A kind's count must fit a Hand's per-kind counter.
const (
	MaxPerKind = 255
	MaxDeck    = 1024
)

// Deck is a deck composition: the number of cards of each kind.
type Deck [NumCards]int

// Size is the number of cards in the deck.
func (d *Deck) Size() int {
	n := 0
	for _, c := range d {
		n += c
	}
	return n
}

// ClassicDeck is the 108-card deck: per color one 0, two each of 1-9, Skip,
// Reverse and Draw Two; four Wild and four Wild Draw Four.
func ClassicDeck() Deck {
	var d Deck
	for c := Red; c < NoColor; c++ {
		d[MakeCard(c, Zero)] = 1
		for s := One; s <= DrawTwo; s++ {
			d[MakeCard(c, s)] = 2
		}
	}
	d[WildCard(Wild)] = 4
	d[WildCard(WildDrawFour)] = 4
	return d
}

// EncantoDeck is the 112-card UNO: Encanto deck: classic plus four Wild Don't Speak.
func EncantoDeck() Deck {
	d := ClassicDeck()
	d[WildCard(WildDontSpeak)] = 4
	return d
}

// PartyDeck is the assumed 221-card UNO Party! deck (RULES.md section 1): two
// classic sets of colored cards, 8 Point Taken, 4 Wild, 4 Wild Draw Four,
// 2 Wild Pile Up and 3 Wild Drawn Together.
func PartyDeck() Deck {
	var d Deck
	classic := ClassicDeck()
	for k := Card(0); k < firstWild; k++ {
		d[k] = 2 * classic[k]
	}
	for c := Red; c < NoColor; c++ {
		d[MakeCard(c, PointTaken)] = 2
	}
	d[WildCard(Wild)] = 4
	d[WildCard(WildDrawFour)] = 4
	d[WildCard(WildPileUp)] = 2
	d[WildCard(WildDrawnTogether)] = 3
	return d
}

var namedDecks = []struct {
	name string
	deck func() Deck
}{{"classic", ClassicDeck}, {"encanto", EncantoDeck}, {"party", PartyDeck}}

// Validate checks counts (non-negative, at most MaxPerKind per kind and
// MaxDeck in all) and that the deck can deal hands of handSize to players and
// still flip a first discard.
func (d *Deck) Validate(players, handSize int) error {
	for k, c := range d {
		if c < 0 {
			return fmt.Errorf("deck: %s has a negative count %d", Card(k).Name(), c)
		}
		if c > MaxPerKind {
			return fmt.Errorf("deck: %s has %d cards, more than the %d allowed per kind", Card(k).Name(), c, MaxPerKind)
		}
	}
	size := d.Size()
	if size > MaxDeck {
		return fmt.Errorf("deck: %d cards, more than the %d allowed", size, MaxDeck)
	}
	if need := players*handSize + 1; size < need {
		return fmt.Errorf("deck: %d cards cannot deal %d players %d cards each and flip a first discard (needs %d)", size, players, handSize, need)
	}
	return nil
}

// ParseDeck reads a deck specification: comma-separated items, each either a
// named deck (classic, encanto, party; at most one, first) to start from, or
// CARD=COUNT to set a kind's count, where CARD is a card name ("red-5",
// "wild-swap-hands") or a colored symbol ("skip", "7") meaning that symbol in
// every color. Without a named deck, counts start at zero.
// Example: "classic,wild-swap-hands=4".
func ParseDeck(spec string) (Deck, error) {
	var d Deck
	items := strings.Split(spec, ",")
	for i, item := range items {
		item = strings.ToLower(strings.TrimSpace(item))
		if item == "" {
			return d, fmt.Errorf("deck %q: empty item", spec)
		}
		name, count, hasCount := strings.Cut(item, "=")
		if !hasCount {
			found := false
			for _, nd := range namedDecks {
				if nd.name == item {
					if i != 0 {
						return d, fmt.Errorf("deck %q: named deck %q must come first", spec, item)
					}
					d, found = nd.deck(), true
				}
			}
			if !found {
				return d, fmt.Errorf("deck %q: %q is neither a named deck (classic, encanto, party) nor CARD=COUNT", spec, item)
			}
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(count))
		if err != nil || n < 0 {
			return d, fmt.Errorf("deck %q: count %q for %s is not a non-negative integer", spec, count, name)
		}
		name = strings.TrimSpace(name)
		if s, ok := coloredSymbol(name); ok {
			for c := Red; c < NoColor; c++ {
				d[MakeCard(c, s)] = n
			}
			continue
		}
		k, err := ParseCard(name)
		if err != nil {
			return d, fmt.Errorf("deck %q: %w", spec, err)
		}
		d[k] = n
	}
	return d, nil
}

func coloredSymbol(name string) (Symbol, bool) {
	for s := Zero; s < FirstWild; s++ {
		if s.String() == name {
			return s, true
		}
	}
	return 0, false
}

// String gives the canonical specification: a named deck's name, or the
// named deck it differs least from followed by its changes. ParseDeck reads
// it back to the same deck.
func (d Deck) String() string {
	best, bestDiff := "", NumCards+1
	var bestDeck Deck
	for _, nd := range namedDecks {
		base := nd.deck()
		diff := 0
		for k := range d {
			if d[k] != base[k] {
				diff++
			}
		}
		if diff < bestDiff {
			best, bestDiff, bestDeck = nd.name, diff, base
		}
	}
	var b strings.Builder
	b.WriteString(best)
	for k := range d {
		if d[k] != bestDeck[k] {
			fmt.Fprintf(&b, ",%s=%d", Card(k).Name(), d[k])
		}
	}
	return b.String()
}

// Describe summarizes the composition for people: the count of each colored
// symbol when all four colors hold the same, then the wilds, e.g. "per
// color: 1x 0, 2x 1-9, ...; 4 wild, 4 wild-draw-four (108 cards)".
func (d Deck) Describe() string {
	var colored, other []string
	for s := Zero; s < FirstWild; s++ {
		n := d[MakeCard(Red, s)]
		same := true
		for c := Yellow; c < NoColor; c++ {
			same = same && d[MakeCard(c, s)] == n
		}
		switch {
		case !same:
			for c := Red; c < NoColor; c++ {
				if k := MakeCard(c, s); d[k] > 0 {
					other = append(other, fmt.Sprintf("%d %s", d[k], k.Name()))
				}
			}
		case n > 0:
			colored = append(colored, fmt.Sprintf("%dx %s", n, s))
		}
	}
	for s := FirstWild; s < NumSymbols; s++ {
		if n := d[WildCard(s)]; n > 0 {
			other = append(other, fmt.Sprintf("%d %s", n, s))
		}
	}
	out := ""
	if len(colored) > 0 {
		out = "per color: " + strings.Join(colored, ", ") + "; "
	}
	return out + strings.Join(other, ", ") + fmt.Sprintf(" (%d cards)", d.Size())
}
