package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/storage"
)

// TestConsoleServesBackup: while a console holds its database open, gobot
// backup copies it through the console's backup socket, as with the bot.
func TestConsoleServesBackup(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "console.db")
	t.Setenv("GOBOT_DB", db)
	t.Setenv("GOBOT_DATABASE_URL", "")
	in, typed := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), []string{"console", "--db", db, "--boards", filepath.Join(dir, "boards"), "--user", "ann"}, in, io.Discard, io.Discard)
	}()
	defer func() {
		typed.Close()
		if code := <-done; code != 0 {
			t.Errorf("console exited with %d", code)
		}
	}()
	for i := 0; ; i++ {
		if _, err := os.Stat(storage.DefaultBackupSocket(db)); err == nil {
			break
		}
		if i == 500 {
			t.Fatalf("the console serves no backup socket at %s", storage.DefaultBackupSocket(db))
		}
		time.Sleep(10 * time.Millisecond)
	}
	copyPath := filepath.Join(dir, "copy.db")
	var out, errOut strings.Builder
	if code := run(context.Background(), []string{"backup", copyPath}, nil, &out, &errOut); code != 0 || out.String() != "backed up "+db+" to "+copyPath+"\n" {
		t.Fatalf("gobot backup while the console runs = %d, %q, %q", code, out.String(), errOut.String())
	}
	s, err := storage.Open(copyPath, storage.Options{Kinds: kinds()})
	if err != nil {
		t.Fatalf("the backup does not open: %v", err)
	}
	s.Close()
}
