package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobot-dev/gobot/storage"
)

// TestBackupRefusesExistingFile: `gobot backup FILE` onto a file that
// exists (perhaps the last good backup) or a directory refuses with one
// line saying so and what to do, and writes nothing; to a new name it
// backs up.
func TestBackupRefusesExistingFile(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "gobot.db")
	s, err := storage.Open(db, storage.Options{Kinds: kinds()})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	t.Setenv("GOBOT_DB", db)
	t.Setenv("GOBOT_DATABASE_URL", "")
	old := filepath.Join(dir, "last-good.db")
	if err := os.WriteFile(old, []byte("the last good backup"), 0o600); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(dir, "backups") + "/"
	if err := os.Mkdir(folder, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ out, want string }{
		{old, "gobot: storage: backup to " + old + ": the file exists, and may be your last good backup, so it is not replaced: remove it first, or back up to a new name: storage: already exists\n"},
		{folder, "gobot: storage: backup to " + folder + ": " + folder + " is a directory; name a new file in it, such as " + filepath.Join(folder, "gobot.db") + ": storage: invalid argument\n"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), []string{"backup", c.out}, nil, &stdout, &stderr); code != 1 || stdout.String() != "" || stderr.String() != c.want {
			t.Errorf("gobot backup %s = %d, %q, %q; want 1 and %q", c.out, code, stdout.String(), stderr.String(), c.want)
		}
	}
	if b, err := os.ReadFile(old); err != nil || string(b) != "the last good backup" {
		t.Errorf("the existing file after a refused backup: %q, %v", b, err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 3 {
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		t.Errorf("after the refused backups the folder holds %s, want gobot.db, last-good.db and backups/ only", strings.Join(names, ", "))
	}
	if left, _ := os.ReadDir(folder); len(left) != 0 {
		t.Errorf("a refused backup wrote %d files into the directory", len(left))
	}
	fresh := filepath.Join(dir, "new.db")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"backup", fresh}, nil, &stdout, &stderr); code != 0 || stdout.String() != "backed up "+db+" to "+fresh+"\n" {
		t.Errorf("gobot backup to a new name = %d, %q, %q", code, stdout.String(), stderr.String())
	}
}
