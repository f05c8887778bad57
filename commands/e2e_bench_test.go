package commands_test

import (
	"testing"

	"github.com/gobot-dev/gobot/commands/discordtest"
	"github.com/gobot-dev/gobot/engine"
)

// BenchmarkE2EMoveAgainstBot measures one move on 19×19 against the
// instant "tester" bot, end to end: a signed POST, the deferral, the
// engine, the bot's reply, two storage commits, the PNG, the multipart edit
// of the answer, and the fake Discord's OpenAPI validation of every call.
func BenchmarkE2EMoveAgainstBot(b *testing.B) {
	e := newEnv(b)
	dm := e.d.DM(e.d.NewUser("bench"))
	user := dm.Recipient
	var free []engine.Point // the human plays from the bottom right, the bot from the top left
	newGame := func() {
		e.do(e.d.Command(dm, user, "go", discordtest.Sub("bot", discordtest.Int("size", 19), discordtest.Str("color", "black"))))
		free = free[:0]
		for row := 0; row < 19; row++ {
			for col := 18; col >= 0; col-- {
				free = append(free, engine.Point{Col: col, Row: row})
			}
		}
	}
	newGame()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g := e.game(dm.ID)
		if g == nil || len(free) == 0 || g.State.MoveCount() > 200 {
			b.StopTimer()
			if g != nil {
				e.do(e.d.Command(dm, user, "go", discordtest.Sub("resign")))
			}
			newGame()
			b.StartTimer()
			g = e.game(dm.ID)
		}
		p := free[0]
		free = free[1:]
		if goOf(g).Board().At(p) != engine.Empty {
			i--
			continue
		}
		if m := e.do(e.play(dm, user, p.String())); m.Ephemeral {
			b.Fatalf("%s refused: %q", p, m.Text())
		}
	}
}
