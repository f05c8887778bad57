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
