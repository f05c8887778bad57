package config

import (
	"errors"
	"strings"
)

// ErrMissing reports that a required variable is unset or empty.
var ErrMissing = errors.New("config: missing value")

// ErrInvalid reports that a variable is set to a value that cannot be used.
var ErrInvalid = errors.New("config: invalid value")

// ErrConflict reports two variables that cannot be set together.
var ErrConflict = errors.New("config: conflicting values")

// VarError describes what is wrong with one environment variable. Its Err
// wraps ErrMissing, ErrInvalid or ErrConflict.
type VarError struct {
	Var string // the variable's name, e.g. "GOBOT_MODE"
	Msg string // what is wrong, lowercase, never containing a secret
	Err error  // ErrMissing, ErrInvalid or ErrConflict
}

func (e *VarError) Error() string { return "config: " + e.Var + ": " + e.Msg }

// Unwrap returns the sentinel the error belongs to.
func (e *VarError) Unwrap() error { return e.Err }

// Errors is the list of problems found in one environment, in the order of
// the variable table. Its Error is a single line.
type Errors []*VarError

func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Var + ": " + e.Msg
	}
	return "config: " + strings.Join(parts, "; ")
}

// Unwrap returns the individual errors, for errors.Is and errors.As.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}
