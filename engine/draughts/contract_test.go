package draughts

import (
	"testing"

	"github.com/gobot-dev/gobot/engine/game/gametest"
)

func TestContract(t *testing.T) {
	gametest.Contract(t, Kind{}, nil, 20, 200)
}
