// Package draughts owns the rules of international draughts (FMJD, 10×10).
package draughts
