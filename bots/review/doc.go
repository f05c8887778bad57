// Package review judges finished games for people who want to learn from
// them: Black's winning chance after every move, the biggest mistakes of
// each player with a better move and its variation, and a summary of
// where the game turned.
//
// Each position is judged by an Evaluator: by default the Monte Carlo
// search of bots/mcts with a fixed playout budget per board size and a
// fixed seed per position (MCTS), so the same game always gets the same
// review; or a GTP program that speaks kata-analyze or lz-analyze
// over GTP (GTP), configured by the host. Run judges the positions one
// after the other on the caller's goroutine, reports its progress, stops
// when its context ends and leaves no goroutine behind.
//
// Before a position goes to the evaluator, the review works out its
// regions with the dead-stone estimate of engine/estimate (territory.go).
// A position whose every region is settled is counted, not estimated: a
// move there loses what the count says, so a dame or a stone dropped into
// a sealed area costs nothing, and the best move is a dame or a pass. For
// the built-in search the big sealed areas are filled with their owner's
// stones (two eyes left), so that its playouts, which let an invader live
// in a sealed area far too often, count them as players do and never
// propose an invasion. What the playouts still get wrong, a bias towards
// the player to move and single judgements several points off where big
// areas are still open, is filtered out of the graph (Review.unbias) and
// out of each move's loss: a loss is measured only between positions with
// the same player to move and must be seen on both sides of the move
// (ConfirmedLosses), and a move that would be a mistake is judged again
// with other seeds and named only when its loss stands out of their
// noise (Review.rejudge) and a better move, played and judged the same
// way, leads by as much (Review.checkBetter).
//
// A Review is plain data that encodes to JSON, so it can be stored with
// the archived game, and the mistake selection (SelectMistakes) and the
// summary work on win-rate series alone, so they are tested on series made
// by hand. The package imports engine (the rules), engine/estimate,
// engine/gtp and bots/mcts, never commands, storage or render: the
// pictures are drawn by render from a Review's numbers.
package review
