package shape

// Learned is the model fitted to the professional records of
// goban-original-games (gammas.go, written by gen).
var Learned = buildLearned()

func buildLearned() *Model {
	m := &Model{rare: learnedRare, diamond: learnedDiamonds}
	for code, g := range learnedPatterns {
		m.pattern[code] = g
	}
	for g := Pattern + 1; g < Diamond; g++ {
		m.gamma[g] = learnedGammas[g]
	}
	return m.index()
}

// LearnedLarge is the model fitted to the same records with large
// patterns besides (gammas_large.go, written by gen): the tree's prior on
// 13×13 and bigger.
var LearnedLarge = buildLearnedLarge()

func buildLearnedLarge() *Model {
	m := &Model{rare: learnedLargeRare, diamond: learnedLargeDiamonds,
		largeCodes: learnedLargeCodes, largeGamma: learnedLargeCodeGammas}
	for code, g := range learnedLargePatterns {
		m.pattern[code] = g
	}
	for g := Pattern + 1; g < Diamond; g++ {
		m.gamma[g] = learnedLargeGammas[g]
	}
	return m.index()
}

// For returns the model of a board of the given size: LearnedLarge on
// 13×13 and bigger, Learned on smaller boards (where the play measured
// with it stays as it was).
func For(size int) *Model {
	if size >= 13 {
		return LearnedLarge
	}
	return Learned
}
