package game

import (
	"errors"
	"strconv"
	"strings"
)

// Refusal is an error with a sentence for the person whose move or option
// was refused: "G0 is off this 9×9 board: valid points are A1–J9." Kinds
// return refusals from ParseMove, Play and New, wrapping their own
// sentinels, so that the core can show the sentence without knowing the
// rules and callers can still branch on the sentinel with errors.Is.
type Refusal struct {
	Err  error  // the kind's sentinel, such as engine.ErrKo
	Text string // the sentence shown to the person
}

// Refuse returns a Refusal of err with the sentence text.
func Refuse(err error, text string) error { return &Refusal{Err: err, Text: text} }

// Error returns the sentinel's message and the sentence.
func (r *Refusal) Error() string {
	if r.Err == nil {
		return r.Text
	}
	return r.Err.Error() + ": " + r.Text
}

// Unwrap returns the sentinel.
func (r *Refusal) Unwrap() error { return r.Err }

// Explain returns the sentence of the first Refusal in err's chain, and
// whether there is one.
func Explain(err error) (string, bool) {
	var r *Refusal
	if errors.As(err, &r) {
		return r.Text, true
	}
	return "", false
}

// MaxQuoted is how many characters of a person's input a refusal quotes.
const MaxQuoted = 32

// Quote returns a person's input for a refusal, in double quotes and cut to
// its first MaxQuoted characters: a 200 KB option echoed whole would make
// the reply too long to send.
func Quote(s string) string { return strconv.Quote(Clip(s, MaxQuoted)) }

// Clip cuts s to at most n characters, the last of them "…" when cut.
func Clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Halfwidth folds what an input method puts in a person's move to
// ASCII: the fullwidth letters, digits and signs (U+FF01–U+FF5E) that
// Chinese, Japanese and Korean keyboards type by default ("Ｄ４",
// "３２－２８") and the ideographic space. Anything else is kept.
func Halfwidth(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 0xFF01 && r <= 0xFF5E:
			return r - 0xFEE0
		case r == '\u3000':
			return ' '
		}
		return r
	}, s)
}
