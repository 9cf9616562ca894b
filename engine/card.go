package engine

import (
	"fmt"
	"strings"
)

// Color is one of the four card colors, or NoColor for wild cards.
type Color uint8

// The colors. NoColor is the printed color of every wild card.
const (
	Red Color = iota
	Yellow
	Green
	Blue
	NoColor
)

// NumColors is the number of real colors.
const NumColors = 4

var colorNames = [...]string{"red", "yellow", "green", "blue", "none"}

func (c Color) String() string {
	if int(c) < len(colorNames) {
		return colorNames[c]
	}
	return fmt.Sprintf("Color(%d)", uint8(c))
}

// ParseColor reads a color by its name ("red") or initial ("r").
func ParseColor(s string) (Color, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	for c := Red; c < NoColor; c++ {
		if s == colorNames[c] || s == colorNames[c][:1] {
			return c, nil
		}
	}
	return NoColor, fmt.Errorf("unknown color %q (valid: red, yellow, green, blue)", s)
}

// Symbol is what a card shows: a number, an action, or a wild kind.
type Symbol uint8

// The symbols. Symbols below FirstWild are printed in each of the four colors;
// the rest are wild cards.
const (
	Zero Symbol = iota
	One
	Two
	Three
	Four
	Five
	Six
	Seven
	Eight
	Nine
	Skip
	Reverse
	DrawTwo
	PointTaken
	Wild
	WildDrawFour
	WildPileUp
	WildDrawnTogether
	WildDontSpeak
	WildSwapHands
	NumSymbols
)

// FirstWild is the first wild symbol; NumColoredSymbols the number of colored ones.
const (
	FirstWild         = Wild
	NumColoredSymbols = int(FirstWild)
)

var symbolNames = [NumSymbols]string{
	"0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
	"skip", "reverse", "draw-two", "point-taken",
	"wild", "wild-draw-four", "wild-pile-up", "wild-drawn-together", "wild-dont-speak", "wild-swap-hands",
}

func (s Symbol) String() string {
	if s < NumSymbols {
		return symbolNames[s]
	}
	return fmt.Sprintf("Symbol(%d)", uint8(s))
}

// IsNumber reports whether s is one of 0-9.
func (s Symbol) IsNumber() bool { return s <= Nine }

// IsWild reports whether s is a wild kind.
func (s Symbol) IsWild() bool { return s >= FirstWild && s < NumSymbols }

// Card is a card kind: two cards of the same kind are identical. Layout: a
// colored card is color*NumColoredSymbols + symbol (0..55); a wild card is
// 56 + (symbol - FirstWild) (56..61). NoCard (255) means no card.
type Card uint8

// Card kinds count and the absent card.
const (
	NumCards       = NumColors*NumColoredSymbols + int(NumSymbols-FirstWild)
	NoCard    Card = 255
	firstWild Card = Card(NumColors * NumColoredSymbols)
)

// MakeCard returns the colored card of color c and symbol s, or the wild of
// symbol s (c is then ignored).
func MakeCard(c Color, s Symbol) Card {
	if s.IsWild() {
		return firstWild + Card(s-FirstWild)
	}
	return Card(c)*Card(NumColoredSymbols) + Card(s)
}

// WildCard returns the wild card of symbol s.
func WildCard(s Symbol) Card { return MakeCard(NoColor, s) }

// Per-kind lookup tables, filled once at start-up. They have 256 entries so
// that indexing by a Card needs no bounds check on the hot path.
var (
	cardColor  [256]Color
	cardSymbol [256]Symbol
	cardPoints [256]int
	// colorKinds[c] and symbolKinds[s] are the sets of kinds (bit k for
	// kind k) of color c and of symbol s; wildKinds is every wild.
	colorKinds  [NumColors + 1]uint64
	symbolKinds [NumSymbols]uint64
	numberKinds uint64
)

func init() {
	for k := Card(0); k < Card(NumCards); k++ {
		if k >= firstWild {
			cardColor[k] = NoColor
			cardSymbol[k] = FirstWild + Symbol(k-firstWild)
		} else {
			cardColor[k] = Color(k / Card(NumColoredSymbols))
			cardSymbol[k] = Symbol(k % Card(NumColoredSymbols))
		}
		cardPoints[k] = k.points()
		colorKinds[cardColor[k]] |= 1 << k
		symbolKinds[cardSymbol[k]] |= 1 << k
		if k.IsNumber() {
			numberKinds |= 1 << k
		}
	}
}

// Color is the printed color of the card (NoColor for wilds).
func (k Card) Color() Color { return cardColor[k] }

// Symbol is the card's number, action or wild kind.
func (k Card) Symbol() Symbol { return cardSymbol[k] }

// IsWild reports whether k is a wild card of any kind.
func (k Card) IsWild() bool { return k >= firstWild && k != NoCard }

// IsNumber reports whether k is a number card.
func (k Card) IsNumber() bool { return k < firstWild && cardSymbol[k] <= Nine }

// Valid reports whether k is a card kind.
func (k Card) Valid() bool { return int(k) < NumCards }

// Points is the card's value in scoring (RULES.md section 1).
func (k Card) Points() int { return cardPoints[k] }

func (k Card) points() int {
	s := k.Symbol()
	switch {
	case s <= Nine:
		return int(s)
	case s < FirstWild:
		return 20
	case s == WildSwapHands:
		return 40
	default:
		return 50
	}
}

// String names the card for people: "red 5", "blue draw-two", "wild-draw-four".
func (k Card) String() string {
	if !k.Valid() {
		if k == NoCard {
			return "no card"
		}
		return fmt.Sprintf("Card(%d)", uint8(k))
	}
	if k.IsWild() {
		return k.Symbol().String()
	}
	return k.Color().String() + " " + k.Symbol().String()
}

// Name is the card's name in deck specifications: "red-5", "wild-draw-four".
func (k Card) Name() string { return strings.ReplaceAll(k.String(), " ", "-") }

// ParseCard reads a card by its Name ("red-5", "blue-skip", "wild").
func ParseCard(s string) (Card, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	for k := Card(0); k < Card(NumCards); k++ {
		if k.Name() == s {
			return k, nil
		}
	}
	return NoCard, fmt.Errorf("unknown card %q (valid: COLOR-SYMBOL such as red-5 or blue-draw-two with colors red, yellow, green, blue and symbols 0-9, skip, reverse, draw-two, point-taken; or a wild: wild, wild-draw-four, wild-pile-up, wild-drawn-together, wild-dont-speak, wild-swap-hands)", s)
}
