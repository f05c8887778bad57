package storage

// OnRecompute has f called as an annulment starts to recompute its pools,
// holding no transaction (and on PostgreSQL not the rating lock): a test
// can act while it runs.
func (s *Store) OnRecompute(f func()) { s.recomputing = f }

// OnRecompute is Store.OnRecompute.
func (p *Postgres) OnRecompute(f func()) { p.recomputing = f }
