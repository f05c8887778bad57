package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gobot-dev/gobot/internal/logtest"
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

// TestConsoleServesBoardPage: the console prints the board page's
// address, where a name signs in (this is a loopback address).
func TestConsoleServesBoardPage(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "console.db")
	t.Setenv("GOBOT_DATABASE_URL", "")
	in, typed := io.Pipe()
	out := new(logtest.Buffer)
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), []string{"console", "--db", db, "--boards", filepath.Join(dir, "boards"), "--user", "ann", "--web", "127.0.0.1:0"}, in, out, io.Discard)
	}()
	defer func() {
		typed.Close()
		if code := <-done; code != 0 {
			t.Errorf("console exited with %d", code)
		}
	}()
	var url string
	for i := 0; url == ""; i++ {
		if _, rest, ok := strings.Cut(out.String(), "Board in your browser: "); ok {
			url = strings.Fields(rest)[0]
		}
		if i == 500 {
			t.Fatalf("the console printed no board address: %q", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/play/") {
		t.Errorf("board address %q", url)
	}
	resp, err := http.Post(url+"api/local", "application/json", strings.NewReader(`{"name":"ann"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("signing in as ann beside the console: %d", resp.StatusCode)
	}
}

// TestConsoleRefusesThreads: the console's channel cannot hold threads,
// so a challenge with thread:true is refused at once, as Discord's
// permissions would have it, rather than posted and failing on Accept.
func TestConsoleRefusesThreads(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "console.db")
	t.Setenv("GOBOT_DATABASE_URL", "")
	in := strings.NewReader("/go challenge opponent:@bob size:9 thread:true\n/quit\n")
	out := new(logtest.Buffer)
	if code := run(context.Background(), []string{"console", "--db", db, "--boards", filepath.Join(dir, "boards"), "--user", "ann", "--web", ""}, in, out, io.Discard); code != 0 {
		t.Fatalf("console exited with %d: %s", code, out.String())
	}
	want := "I may not create threads in this channel (I need Create Public Threads and Send Messages in Threads): challenge with `thread:false` to play here, or ask a moderator to give me those permissions."
	if !strings.Contains(out.String(), want) || strings.Contains(out.String(), "Accept") {
		t.Errorf("console answered %q, want %q and no challenge", out.String(), want)
	}
}

// TestConsoleStopsAtPrompt: a console waiting at its prompt stops when its
// context is cancelled, as Ctrl-C and SIGTERM cancel it (main's
// signal.NotifyContext), and closes its database as on /quit. It went on
// waiting for the next line, so a signal took effect only at the next
// Enter, and a console reading from a pipe only SIGKILL ended.
func TestConsoleStopsAtPrompt(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "console.db")
	t.Setenv("GOBOT_DATABASE_URL", "")
	in, typed := io.Pipe() // stays open: nothing more is typed
	defer typed.Close()
	out := new(logtest.Buffer)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"console", "--db", db, "--boards", filepath.Join(dir, "boards"), "--user", "ann", "--web", ""}, in, out, io.Discard)
	}()
	for i := 0; !strings.HasSuffix(out.String(), "ann> "); i++ {
		if i == 500 {
			t.Fatalf("the console shows no prompt: %q", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("the console stopped with %d, want 0", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the console still waits at its prompt 10 s after its context was cancelled")
	}
	s, err := storage.Open(db, storage.Options{Kinds: kinds(), Timeout: time.Second})
	if err != nil {
		t.Fatalf("the console's database is still held: %v", err)
	}
	s.Close()
}

// TestConsoleAdminsCannotBeBanned: every console user is its server's
// admin, and, as on Discord, an admin cannot be banned: a reviewer had
// bob lift his own ban and ban ann, an admin.
func TestConsoleAdminsCannotBeBanned(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "console.db")
	t.Setenv("GOBOT_DATABASE_URL", "")
	in := strings.NewReader("/go-admin ban user:@bob reason:spam\n/go-admin bans\n/quit\n")
	out := new(logtest.Buffer)
	if code := run(context.Background(), []string{"console", "--db", db, "--boards", filepath.Join(dir, "boards"), "--user", "ann", "--web", ""}, in, out, io.Discard); code != 0 {
		t.Fatalf("console exited with %d: %s", code, out.String())
	}
	for _, want := range []string{
		"@bob is an admin of this server (Manage Server), and admins cannot be banned from gobot.",
		"Nobody is banned on this server now.",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("console answered\n%s\nwant %q", out.String(), want)
		}
	}
	if strings.Contains(out.String(), "is banned from gobot") {
		t.Errorf("the console banned an admin:\n%s", out.String())
	}
}
