package storage

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/engine"
	bolt "go.etcd.io/bbolt"
)

// The crash test: a child process (this test binary, re-executed to run
// TestCrashChild) writes moves into several games as fast as it can and
// prints a line for every write the store acknowledged; the parent kills
// it with SIGKILL at a random moment, reopens the file and checks that
// every acknowledged move is there and the file passes Check. Repeat.
//
// GOBOT_CRASH_ITERATIONS sets the number of kills (default 12).

const (
	crashEnvDB   = "GOBOT_STORAGE_CRASH_DB"
	crashEnvSeed = "GOBOT_STORAGE_CRASH_SEED"
	crashGames   = 4  // channels the child writes to concurrently
	crashLength  = 40 // moves after which the child finishes a game and starts another
)

// TestCrashChild is the child's side; it does nothing in a normal run.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashEnvDB)
	if path == "" {
		t.Skip("runs only as the child of TestCrash")
	}
	seed, _ := strconv.ParseUint(os.Getenv(crashEnvSeed), 10, 64)
	s, err := Open(path, Options{Kinds: testKinds, Timeout: 30 * time.Second})
	if err != nil {
		fmt.Printf("open-failed %v\n", err)
		os.Exit(3)
	}
	var wg sync.WaitGroup
	for k := range crashGames {
		wg.Go(func() { crashWriter(t, s, fmt.Sprintf("crash%d", k), rand.New(rand.NewPCG(seed, uint64(k)))) })
	}
	wg.Wait() // never: the parent kills us
}

// crashWriter plays random moves in one channel for ever, printing
// "move <channel> <game ID> <version> <move number> <move>" after each
// acknowledged write and "finish <channel> <game ID> <moves>" after each
// acknowledged FinishGame. Each line is one write(2) of well under
// PIPE_BUF, so lines from several writers never interleave.
func crashWriter(t *testing.T, s *Store, channel string, r *rand.Rand) {
	for {
		g, err := s.Game(ctx, channel)
		if errors.Is(err, ErrNotFound) {
			g = &Game{ChannelID: channel, Sides: Sides(human("1"), bot("x")), State: engine.Own(newEngine(t, 9))}
			if err := s.CreateGame(ctx, g); err != nil {
				fmt.Printf("error create %v\n", err)
				os.Exit(4)
			}
			fmt.Printf("move %s %s %d 0 -\n", channel, g.ID, g.Version)
			continue
		}
		if err != nil {
			fmt.Printf("error load %v\n", err)
			os.Exit(4)
		}
		if goOf(g).MoveCount() >= crashLength || goOf(g).Over() {
			rec, _ := goOf(g).MarshalJSON() // stands in for the SGF: the test reads the moves back from it
			if err := s.FinishGame(ctx, g, Archived{Result: "Void", SGF: rec}); err != nil {
				fmt.Printf("error finish %v\n", err)
				os.Exit(4)
			}
			fmt.Printf("finish %s %s %d\n", channel, g.ID, goOf(g).MoveCount())
			continue
		}
		m := playRandom(t, goOf(g), r)
		if err := s.UpdateGame(ctx, g); err != nil {
			fmt.Printf("error update %v\n", err)
			os.Exit(4)
		}
		fmt.Printf("move %s %s %d %d %s\n", channel, g.ID, g.Version, goOf(g).MoveCount(), m.Color.Letter()+"_"+m.String())
	}
}

// crashGame is what the parent was told about one game.
type crashGame struct {
	channel  string
	version  uint64         // highest acknowledged version
	moves    map[int]string // move number -> move, acknowledged
	finished bool
}

func TestCrash(t *testing.T) {
	iterations := 12
	if testing.Short() {
		iterations = 4
	}
	if v := os.Getenv("GOBOT_CRASH_ITERATIONS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("GOBOT_CRASH_ITERATIONS=%q: %v", v, err)
		}
		iterations = n
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	games := map[string]*crashGame{}
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	totalAcks := 0
	for it := range iterations {
		acks := crashRun(t, path, it, r, games)
		totalAcks += acks
		crashVerify(t, path, it, games)
		if t.Failed() {
			return
		}
	}
	finished := 0
	for _, g := range games {
		if g.finished {
			finished++
		}
	}
	t.Logf("%d kills, %d acknowledged writes, %d games (%d finished), all present", iterations, totalAcks, len(games), finished)
}

// crashRun starts the child, kills it at a random moment and returns the
// number of acknowledgements it read.
func crashRun(t *testing.T, path string, it int, r *rand.Rand, games map[string]*crashGame) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnvDB+"="+path, fmt.Sprintf("%s=%d", crashEnvSeed, r.Uint64()))
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 1024)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	// Kill at a random moment: sometimes before the first write is done
	// (during Open), mostly after a random number of acknowledgements.
	killAfter := r.IntN(400)
	if it%6 == 0 {
		killAfter = 0
	}
	delay := time.Duration(r.IntN(3000)) * time.Microsecond
	acks, killed := 0, false
	kill := func() {
		if !killed {
			killed = true
			cmd.Process.Kill() // SIGKILL
		}
	}
	if killAfter == 0 {
		time.Sleep(delay)
		kill()
	}
	for line := range lines {
		f := strings.Fields(line)
		switch {
		case len(f) == 6 && f[0] == "move":
			g := crashTrack(games, f[1], f[2])
			v, _ := strconv.ParseUint(f[3], 10, 64)
			n, _ := strconv.Atoi(f[4])
			g.version = max(g.version, v)
			if n > 0 {
				g.moves[n] = strings.Replace(f[5], "_", " ", 1)
			}
		case len(f) == 4 && f[0] == "finish":
			crashTrack(games, f[1], f[2]).finished = true
		default:
			kill()
			cmd.Wait()
			t.Fatalf("child: %s", line)
		}
		acks++
		if acks == killAfter {
			time.Sleep(delay)
			kill()
		}
	}
	kill() // in case the child stopped writing before killAfter
	cmd.Wait()
	return acks
}

func crashTrack(games map[string]*crashGame, channel, id string) *crashGame {
	g := games[id]
	if g == nil {
		g = &crashGame{channel: channel, moves: map[int]string{}}
		games[id] = g
	}
	return g
}

// crashVerify reopens the file after a kill and checks every acknowledged
// write.
func crashVerify(t *testing.T, path string, it int, games map[string]*crashGame) {
	t.Helper()
	s, err := Open(path, Options{Kinds: testKinds})
	if err != nil {
		t.Fatalf("kill %d: Open() = %v", it, err)
	}
	defer s.Close()
	if err := s.Check(ctx); err != nil {
		t.Fatalf("kill %d: Check() = %v", it, err)
	}
	if _, err := s.ActiveGames(ctx); err != nil {
		t.Fatalf("kill %d: ActiveGames() = %v", it, err)
	}
	for id, want := range games {
		var moves []string
		active, err := s.Game(ctx, want.channel)
		switch {
		case err == nil && active.ID == id:
			if want.finished {
				t.Errorf("kill %d: game %s was acknowledged finished but is active", it, id)
			}
			if active.Version < want.version {
				t.Errorf("kill %d: game %s at version %d, acknowledged %d", it, id, active.Version, want.version)
			}
			moves = moveStrings(goOf(active))
		case err == nil || errors.Is(err, ErrNotFound):
			// Finished (acknowledged or not) and so archived.
			a, err := s.ArchivedGame(ctx, id)
			if err != nil {
				t.Errorf("kill %d: game %s neither active nor archived: %v", it, id, err)
				continue
			}
			eg := new(engine.Game)
			if err := eg.UnmarshalJSON(a.SGF); err != nil {
				t.Errorf("kill %d: archived game %s: %v", it, id, err)
				continue
			}
			moves = moveStrings(eg)
		default:
			t.Errorf("kill %d: Game(%s) = %v", it, want.channel, err)
			continue
		}
		for n, m := range want.moves {
			if n > len(moves) || moves[n-1] != m {
				t.Errorf("kill %d: game %s move %d was acknowledged as %s, stored %v", it, id, n, m, moves)
				break
			}
		}
	}
}

const crashEnvMigrate = "GOBOT_STORAGE_MIGRATE_DB"

// TestMigrateChild is the child's side of TestCrashDuringMigration: it opens
// (and so migrates) the file and reports it.
func TestMigrateChild(t *testing.T) {
	path := os.Getenv(crashEnvMigrate)
	if path == "" {
		t.Skip("runs only as the child of TestCrashDuringMigration")
	}
	fmt.Println("opening")
	s, err := Open(path, Options{Kinds: testKinds, Timeout: 30 * time.Second})
	if err != nil {
		fmt.Printf("open-failed %v\n", err)
		os.Exit(3)
	}
	fmt.Println("migrated")
	s.Close()
}

// TestCrashDuringMigration kills a process while it migrates a schema 1
// file with a large archive, at random moments, and checks that the file
// is then either untouched schema 1 or completely migrated, and migrates
// correctly on the next start either way.
func TestCrashDuringMigration(t *testing.T) {
	extra := 1000 // archived games, so that the migration takes a while
	if raceEnabled {
		extra = 250
	}
	dir := t.TempDir()
	pristine := filepath.Join(dir, "v1.db")
	f := makeFixture(t)
	for i := range extra {
		a := f.archived[0]
		a.ID = fmt.Sprintf("x%05d", i)
		a.FinishedAt = t0.Add(time.Duration(i) * time.Minute)
		f.archived = append(f.archived, a)
	}
	writeV1(t, pristine, f)
	orig, err := os.ReadFile(pristine)
	if err != nil {
		t.Fatal(err)
	}
	// run starts a migrating child and, when killAt > 0, kills it that long
	// after it said it was opening the file; otherwise it lets it finish
	// and returns how long Open took.
	run := func(path string, killAt time.Duration) time.Duration {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMigrateChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashEnvMigrate+"="+path)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer cmd.Wait()
		sc := bufio.NewScanner(out)
		if !sc.Scan() || sc.Text() != "opening" {
			cmd.Process.Kill()
			t.Fatalf("migrating child said %q", sc.Text())
		}
		start := time.Now()
		if killAt > 0 {
			time.Sleep(killAt)
			cmd.Process.Kill() // SIGKILL
			return 0
		}
		if !sc.Scan() || sc.Text() != "migrated" {
			t.Fatalf("migrating child said %q", sc.Text())
		}
		return time.Since(start)
	}
	// One full run tells how long the migration takes here; the kills are
	// spread over that span.
	full := filepath.Join(dir, "full.db")
	os.WriteFile(full, orig, 0o600)
	span := run(full, 0)
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 2))
	kills := 5
	if testing.Short() {
		kills = 2
	}
	states := map[uint64]int{}
	for i := range kills {
		path := filepath.Join(dir, fmt.Sprintf("k%d.db", i))
		os.WriteFile(path, orig, 0o600)
		run(path, time.Duration(r.Int64N(int64(span)+1))+time.Microsecond)
		// What did the kill leave? Either schema, nothing in between.
		db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
		if err != nil {
			t.Fatalf("kill %d: %v", i, err)
		}
		var v uint64
		db.View(func(tx *bolt.Tx) error {
			v = uint64FromKey(tx.Bucket(bucketMeta).Get(keySchema))
			if (v == 1) != (tx.Bucket(bucketArchiveSGF) == nil) {
				t.Errorf("kill %d: schema %d with archive_sgf present: %v", i, v, tx.Bucket(bucketArchiveSGF) != nil)
			}
			return nil
		})
		db.Close()
		states[v]++
		s := openAt(t, path)
		if all, err := s.PlayerGames(ctx, "1", 0); err != nil || len(all) != extra+2 {
			t.Errorf("kill %d: player 1 has %d archived games, %v; want %d", i, len(all), err, extra+2)
		}
		if st, err := s.PlayerStats(ctx, "2"); err != nil || st.Games != extra+2 || st.Wins != extra+2 {
			t.Errorf("kill %d: PlayerStats(2) = %+v, %v; want %d games won", i, st, err, extra+2)
		}
		if g, err := s.Game(ctx, "c1"); err != nil || g.Version != 4 {
			t.Errorf("kill %d: Game(c1) = %v, %v", i, g, err)
		}
		s.QuarantineGame(ctx, "c9")
		s.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketArchive).Delete([]byte("a9")) })
		s.Close()
	}
	t.Logf("Open with migration takes about %v; %d kills left schema 1 %d times, schema 2 %d times",
		span.Round(time.Millisecond), kills, states[1], states[2])
}
