package storage

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	bolterrors "go.etcd.io/bbolt/errors"
)

func TestOpenLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gobot.db")
	openAt(t, path)
	// flock is per open file, so a second Open in this process stands in
	// for a second bot process.
	_, err := Open(path, Options{Kinds: testKinds, Timeout: 50 * time.Millisecond})
	if !errors.Is(err, ErrLocked) || !errors.Is(err, bolterrors.ErrTimeout) {
		t.Fatalf("second Open() = %v, want ErrLocked wrapping bbolt's timeout", err)
	}
}

func TestClosed(t *testing.T) {
	s := openTest(t)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); !errors.Is(err, ErrClosed) {
		t.Errorf("second Close() = %v, want ErrClosed", err)
	}
	if _, err := s.Game(ctx, "c1"); !errors.Is(err, ErrClosed) {
		t.Errorf("Game() after Close = %v, want ErrClosed", err)
	}
	if err := s.CreateGame(ctx, newGame(t, "c1", "1", "2")); !errors.Is(err, ErrClosed) {
		t.Errorf("CreateGame() after Close = %v, want ErrClosed", err)
	}
}

// fill writes n games with a few moves each.
func fill(t *testing.T, s *Store, n int) {
	for i := range n {
		g := newGame(t, fmt.Sprintf("c%d", i), "1", "2")
		play(t, goOf(g), "E5", "C3")
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
}

// sameContent checks that the database at path holds the games of s.
func sameContent(t *testing.T, s *Store, path string) {
	t.Helper()
	b := openAt(t, path)
	want, err := s.ActiveGames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got, err := b.ActiveGames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("backup has %d games, store %d", len(got), len(want))
	}
	for i := range got {
		if got[i].ID != want[i].ID || got[i].Version != want[i].Version {
			t.Errorf("backup game %d = %s v%d, want %s v%d", i, got[i].ID, got[i].Version, want[i].ID, want[i].Version)
		}
	}
}

func TestBackup(t *testing.T) {
	s := openTest(t)
	fill(t, s, 5)
	var buf bytes.Buffer
	n, err := s.Backup(&buf)
	if err != nil || n != int64(buf.Len()) || n == 0 {
		t.Fatalf("Backup() = %d, %v; buffer holds %d", n, err, buf.Len())
	}
	dir := t.TempDir()
	raw := filepath.Join(dir, "raw.db")
	os.WriteFile(raw, buf.Bytes(), 0o600)
	sameContent(t, s, raw)

	// BackupFile replaces an existing file atomically and leaves no
	// temporary file behind.
	out := filepath.Join(dir, "backup.db")
	os.WriteFile(out, []byte("an older backup"), 0o600)
	if err := s.BackupFile(out); err != nil {
		t.Fatalf("BackupFile() = %v", err)
	}
	sameContent(t, s, out)
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("backup directory holds %d entries, want raw.db and backup.db", len(entries))
	}

	if err := s.BackupFile(filepath.Join(dir, "missing", "b.db")); err == nil {
		t.Errorf("BackupFile into a missing directory = nil")
	}
}

func TestBackupWhileWriting(t *testing.T) {
	s := openTest(t)
	fill(t, s, 8)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(i), 0))
			ch := fmt.Sprintf("c%d", i)
			for {
				select {
				case <-stop:
					return
				default:
				}
				g, err := s.Game(ctx, ch)
				if err != nil {
					t.Error(err)
					return
				}
				if goOf(g).Over() {
					return
				}
				playRandom(t, goOf(g), r)
				if err := s.UpdateGame(ctx, g); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	dir := t.TempDir()
	for i := range 5 {
		out := filepath.Join(dir, fmt.Sprintf("b%d.db", i))
		if err := s.BackupFile(out); err != nil {
			t.Fatalf("BackupFile() = %v", err)
		}
		b := openAt(t, out) // checked on cleanup: Tx.Check and indexes
		if games, err := b.ActiveGames(ctx); err != nil || len(games) != 8 {
			t.Errorf("backup %d: %d games, %v", i, len(games), err)
		}
	}
	close(stop)
	wg.Wait()
}

func TestBackupSocket(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gobot.db")
	sock := DefaultBackupSocket(path)
	// A stale socket, as a crash leaves it.
	stale, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	stale.(*net.UnixListener).SetUnlinkOnClose(false)
	stale.Close()
	s, err := Open(path, Options{Kinds: testKinds, BackupSocket: sock})
	if err != nil {
		t.Fatalf("Open() = %v", err)
	}
	fill(t, s, 3)
	if fi, err := os.Stat(sock); err != nil || fi.Mode().Perm() != 0o600 || fi.Mode()&os.ModeSocket == 0 {
		t.Errorf("backup socket: %v, %v; want a socket with mode 0600", fi.Mode(), err)
	}
	if _, err := os.Lstat(sock + ".new"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the side path the socket was bound at: %v, want it gone", err)
	}

	// While the store is open: through the socket.
	out := filepath.Join(dir, "hot.db")
	if err := BackupTo(ctx, path, sock, out); err != nil {
		t.Fatalf("BackupTo(running) = %v", err)
	}
	sameContent(t, s, out)
	// Into a folder that is not there: said so, not blamed on the socket.
	missing := filepath.Join(dir, "nowhere", "x.db")
	if err := BackupTo(ctx, path, sock, missing); !errors.Is(err, os.ErrNotExist) || strings.Contains(err.Error(), "socket") {
		t.Errorf("BackupTo(into a missing folder) = %v, want the folder's ErrNotExist", err)
	}

	// Locked and no socket: ErrLocked, quickly.
	if err := BackupTo(ctx, path, filepath.Join(dir, "none.sock"), filepath.Join(dir, "x.db")); !errors.Is(err, ErrLocked) {
		t.Errorf("BackupTo(locked, no socket) = %v, want ErrLocked", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.db")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("failed BackupTo created its output: %v", err)
	}

	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(sock); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket after Close: %v, want it removed", err)
	}

	// No bot running: the file is opened directly.
	cold := filepath.Join(dir, "cold.db")
	if err := BackupTo(ctx, path, sock, cold); err != nil {
		t.Fatalf("BackupTo(stopped) = %v", err)
	}
	s2 := openAt(t, path)
	sameContent(t, s2, cold)
}

func TestBackupSocketNotOurs(t *testing.T) {
	// A regular file where the socket should go is left alone, and the
	// store opens without hot backups rather than not at all.
	dir := t.TempDir()
	path := filepath.Join(dir, "gobot.db")
	sock := filepath.Join(dir, "precious.txt")
	os.WriteFile(sock, []byte("keep me"), 0o600)
	s := openAt(t, path)
	s.Close()
	s, err := Open(path, Options{Kinds: testKinds, BackupSocket: sock})
	if err != nil {
		t.Fatalf("Open() = %v", err)
	}
	s.Close()
	if b, err := os.ReadFile(sock); err != nil || string(b) != "keep me" {
		t.Errorf("file at the socket path = %q, %v; want it untouched", b, err)
	}
}

func TestBackupOntoItself(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gobot.db")
	s := openAt(t, path)
	fill(t, s, 2)
	same := []string{path, filepath.Join(dir, ".", "gobot.db"), filepath.Join(dir, "sub", "..", "gobot.db")}
	link := filepath.Join(dir, "link.db")
	if err := os.Symlink(path, link); err == nil {
		same = append(same, link)
	}
	for _, out := range same {
		if err := s.BackupFile(out); !errors.Is(err, ErrInvalid) {
			t.Errorf("BackupFile(%s) = %v, want ErrInvalid", out, err)
		}
		if err := BackupTo(ctx, path, "", out); !errors.Is(err, ErrInvalid) {
			t.Errorf("BackupTo(%s) = %v, want ErrInvalid", out, err)
		}
	}
	if games, err := s.ActiveGames(ctx); err != nil || len(games) != 2 {
		t.Errorf("after refused backups: %d games, %v", len(games), err)
	}
}

// TestBackupSocketAnswersOnceItExists: the socket file appears only once it
// listens, so a `gobot backup` racing a starting bot never finds a socket
// that refuses it (and then reports the file locked).
func TestBackupSocketAnswersOnceItExists(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gobot.db")
	sock := DefaultBackupSocket(path)
	openAt(t, path).Close()
	for i := range 200 {
		seen := make(chan error, 1)
		go func() {
			for {
				if _, err := os.Stat(sock); err == nil {
					c, err := net.Dial("unix", sock)
					if err == nil {
						c.Close()
					}
					seen <- err
					return
				}
			}
		}()
		s, err := Open(path, Options{Kinds: testKinds, BackupSocket: sock})
		if err != nil {
			t.Fatalf("Open() = %v", err)
		}
		err = <-seen
		s.Close()
		if err != nil {
			t.Fatalf("open %d: dialling the socket as soon as it exists: %v", i, err)
		}
	}
}

// TestOpenAfterKilledCreation: a new database is made under a side name
// of its own and linked into place, so a start killed while creating it
// leaves no empty file at the path (which the next start would refuse as
// damaged), at most its side file, which the next start leaves alone.
func TestOpenAfterKilledCreation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gobot.db")
	if err := os.WriteFile(filepath.Join(filepath.Dir(path), ".gobot.db.creating-123"), nil, 0o600); err != nil { // what a kill may leave
		t.Fatal(err)
	}
	s, err := Open(path, Options{Kinds: testKinds})
	if err != nil {
		t.Fatalf("Open() after a killed creation = %v", err)
	}
	s.Close()
	if side, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".gobot.db.creating-*")); len(side) != 1 {
		t.Errorf("side files %v: want only the one the killed start left (each start makes its own)", side)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		t.Errorf("the database: %v, %v; want a file with its pages", fi, err)
	}
	if s, err := Open(path, Options{Kinds: testKinds}); err != nil {
		t.Errorf("Open() again = %v", err)
	} else {
		s.Close()
	}
}

// TestBackupSocketPathTooLong: a database whose backup socket's path is
// longer than a Unix socket's may be serves no hot backups, and both the
// start-up line and gobot backup say why (they said "bind: invalid
// argument"); with no gobot running the file is still copied directly.
func TestBackupSocketPathTooLong(t *testing.T) {
	dir := t.TempDir()
	long := filepath.Join(dir, strings.Repeat("d", max(1, maxSocketPath-len(dir)-len("/gobot.db.sock"))))
	if err := os.Mkdir(long, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(long, "gobot.db")
	sock := DefaultBackupSocket(path)
	if len(sock) != maxSocketPath+1 {
		t.Fatalf("socket path of %d bytes, want %d", len(sock), maxSocketPath+1)
	}
	var logs bytes.Buffer
	s, err := Open(path, Options{Kinds: testKinds, BackupSocket: sock, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	why := fmt.Sprintf("the database's path is too long for its backup socket %s (%d bytes; a Unix socket's path may have %d): "+
		"put the database at a shorter path, %d bytes at most, for hot backups", sock, len(sock), maxSocketPath, maxSocketPath-5)
	if want := `msg="storage: no hot backups while running" err="backup socket: ` + why + `"`; !strings.Contains(logs.String(), want) {
		t.Errorf("start-up log =\n%s\nwant %s", logs.String(), want)
	}
	out := filepath.Join(dir, "hot.db")
	err = BackupTo(ctx, path, sock, out)
	if want := "storage: backup " + path + ": the file is in use, and the gobot using it serves no hot backups: " + why + ": " + ErrLocked.Error(); err == nil || err.Error() != want || !errors.Is(err, ErrLocked) {
		t.Errorf("BackupTo(running) = %v\nwant %s", err, want)
	}
	s.Close()
	if err := BackupTo(ctx, path, sock, out); err != nil {
		t.Errorf("BackupTo(stopped) = %v", err)
	}
}
