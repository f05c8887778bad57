package storage

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// damagedDB writes a database with enough games to span many pages and
// returns its path and the size its pages take (bbolt grows the file in
// larger steps, so the file itself may be longer).
func damagedDB(t *testing.T) (string, int64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gobot.db")
	s, err := Open(path, Options{Kinds: testKinds})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		g := newGame(t, fmt.Sprintf("chan%d", i), fmt.Sprintf("%d", 1000+i), fmt.Sprintf("%d", 5000+i))
		play(t, goOf(g), "D4", "E5", "C3", "F6", "G7")
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	var used int64
	s.db.View(func(tx *bolt.Tx) error { used = tx.Size(); return nil })
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if used < 64<<10 {
		t.Fatalf("database pages take %d bytes, want more than 64 KiB to truncate", used)
	}
	return path, used
}

// TestOpenDamagedFile truncates a database as a full disk or a bad copy
// would: Open must refuse it with ErrDamaged and one line that names the
// backup command, never crash (bbolt would fault on pages past the end of
// the mapping) and never start an empty database over it.
func TestOpenDamagedFile(t *testing.T) {
	for _, tt := range []struct {
		name string
		size func(full int64) int64
		want string
	}{
		{"16 KiB", func(int64) int64 { return 16 << 10 }, "truncated"},
		{"half", func(full int64) int64 { return full / 2 }, "truncated"},
		{"one page", func(int64) int64 { return 4096 }, "truncated"},
		{"100 bytes", func(int64) int64 { return 100 }, "truncated"},
		{"10 bytes", func(int64) int64 { return 10 }, "not a gobot database"},
		{"empty", func(int64) int64 { return 0 }, "is empty"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path, full := damagedDB(t)
			if err := os.Truncate(path, tt.size(full)); err != nil {
				t.Fatal(err)
			}
			s, err := Open(path, Options{Kinds: testKinds})
			if err == nil {
				s.Close()
				t.Fatalf("Open(truncated to %d of %d bytes) = nil error, want ErrDamaged", tt.size(full), full)
			}
			if !errors.Is(err, ErrDamaged) {
				t.Errorf("Open() = %v, want ErrDamaged", err)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") || !strings.Contains(msg, "gobot backup") || !strings.Contains(msg, tt.want) || !strings.Contains(msg, path) {
				t.Errorf("Open() error = %q, want one line naming %s, saying %q and naming `gobot backup`", msg, path, tt.want)
			}
			if fi, err := os.Stat(path); err != nil || fi.Size() != tt.size(full) {
				t.Errorf("after Open the file is %v bytes (%v), want it untouched at %d", fi.Size(), err, tt.size(full))
			}
		})
	}
}

// TestOpenNewFile: only a path that does not exist is a new database.
func TestOpenNewFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.db")
	s, err := Open(path, Options{Kinds: testKinds})
	if err != nil {
		t.Fatalf("Open(new path) = %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(path, Options{Kinds: testKinds})
	if err != nil {
		t.Fatalf("Open(existing sound file) = %v", err)
	}
	s.Close()
}

// TestOpenDamagedPage overwrites the data pages of a sound-sized file with
// garbage (with and without its free list): the header and size are
// right, but the verification at Open finds the pages.
func TestOpenDamagedPage(t *testing.T) {
	for _, keepFreelist := range []bool{false, true} {
		t.Run(fmt.Sprintf("keep free list %v", keepFreelist), func(t *testing.T) { testOpenDamagedPage(t, keepFreelist) })
	}
}

func testOpenDamagedPage(t *testing.T, keepFreelist bool) {
	path, full := damagedDB(t)
	var freelist int64 = -1
	if keepFreelist {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := readMeta(f, 0)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		freelist = int64(m.freelist)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	junk := []byte(strings.Repeat("\xff", 4096))
	for off := int64(2 * 4096); off < full; off += 4096 {
		if off/4096 == freelist {
			continue
		}
		if _, err := f.WriteAt(junk, off); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	s, err := Open(path, Options{Kinds: testKinds})
	if err == nil {
		s.Close()
		t.Fatal("Open(file of garbage pages) = nil error, want ErrDamaged")
	}
	if !errors.Is(err, ErrDamaged) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "gobot backup") {
		t.Errorf("Open() = %q, want ErrDamaged on one line naming `gobot backup`", err)
	}
}

// TestOpenFlippedBytes flips bytes (40 a copy) in the pages of a sound
// database, as a failing disk would: Open must answer each copy, sound or ErrDamaged on
// one line, and never fault. bbolt's page check follows keys where the
// elements point, and faulted (a fatal SIGSEGV or SIGBUS) on a flipped
// byte in a branch page's element before the tree was walked first.
func TestOpenFlippedBytes(t *testing.T) {
	path, full := damagedDB(t)
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	damaged := 0
	for seed := range uint64(60) {
		rng := rand.New(rand.NewPCG(seed, 0x5eed))
		data := slices.Clone(orig)
		for range 40 {
			data[8192+rng.Int64N(full-8192)] ^= 0xff
		}
		p := filepath.Join(t.TempDir(), "flipped.db")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := Open(p, Options{Kinds: testKinds})
		if err == nil {
			s.Close()
			continue
		}
		damaged++
		if !errors.Is(err, ErrDamaged) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "gobot backup") {
			t.Errorf("seed %d: Open() = %q, want ErrDamaged on one line naming `gobot backup`", seed, err)
		}
	}
	t.Logf("%d of 60 damaged copies refused", damaged)
	if damaged < 30 {
		t.Errorf("%d of 60 damaged copies refused, want most of them", damaged)
	}
}

// TestOpenDirectory: a directory where the database file should be is
// said to be one, not called a damaged database to restore.
func TestOpenDirectory(t *testing.T) {
	dir := t.TempDir()
	_, err := Open(dir, Options{Kinds: testKinds})
	if !errors.Is(err, ErrInvalid) || errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), dir+" is a directory, not a database file") {
		t.Errorf("Open(a directory) = %v, want ErrInvalid saying it is a directory", err)
	}
}
