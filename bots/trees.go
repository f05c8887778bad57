package bots

import "sync"

// treeKey names one game's bot of one level: the game's seed is unique per
// game (commands derive it from the interaction that created the game).
type treeKey struct {
	level string
	seed  int64
}

// treeCache keeps the bots of levels that reuse their search tree
// (Level.KeepTree) between the moves of a game, so the next search starts
// from the subtree of the last one. It holds at most max bots, dropping the
// least recently used; a bot is taken out while it searches, so two searches
// never share one. It is safe for concurrent use.
type treeCache struct {
	mu      sync.Mutex
	max     int
	clock   uint64
	entries map[treeKey]treeEntry
}

type treeEntry struct {
	bot  Bot
	used uint64
}

func newTreeCache(max int) *treeCache {
	return &treeCache{max: max, entries: make(map[treeKey]treeEntry)}
}

// take removes and returns the bot kept for k, or nil.
func (c *treeCache) take(k treeKey) Bot {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[k]
	if !ok {
		return nil
	}
	delete(c.entries, k)
	return e.bot
}

// put keeps b for k, evicting the least recently used bot when full.
func (c *treeCache) put(k treeKey, b Bot) {
	if c.max <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.clock++
	c.entries[k] = treeEntry{bot: b, used: c.clock}
	for len(c.entries) > c.max {
		var oldest treeKey
		first := true
		for key, e := range c.entries {
			if first || e.used < c.entries[oldest].used {
				oldest, first = key, false
			}
		}
		delete(c.entries, oldest)
	}
}

// len returns the number of bots kept.
func (c *treeCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}
