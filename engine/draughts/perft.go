package draughts

// Perft counts the leaf nodes of the tree of legal moves depth plies deep
// from p (with bulk counting at the last ply): the standard test of a move
// generator. From the start position the counts for depths 1 to 9 are 9,
// 81, 658, 4265, 27117, 167140, 1049442, 6483961 and 41022423. Depth 0
// counts 1.
func Perft(p Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	bufs := make([][]Move, depth)
	for i := range bufs {
		bufs[i] = make([]Move, 0, MaxMoves)
	}
	return perft(&p, depth, bufs)
}

func perft(p *Position, depth int, bufs [][]Move) uint64 {
	if depth == 1 {
		return uint64(p.CountMoves(bufs[0]))
	}
	moves := p.Generate(bufs[depth-1][:0])
	bufs[depth-1] = moves // keep any room it grew
	var n uint64
	for _, m := range moves {
		q := *p
		q.Play(m)
		n += perft(&q, depth-1, bufs)
	}
	return n
}
