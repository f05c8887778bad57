package storage

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// Hot backups while gobot runs. bbolt locks the file for the process that
// has it open, so `gobot backup FILE` cannot open the database beside a
// running bot. Instead the running store serves consistent copies on a Unix
// socket (Options.BackupSocket): a client connects and receives 8 bytes of
// big-endian length followed by exactly that many bytes of database, written
// by Tx.WriteTo inside one read transaction. BackupTo tries the socket first
// and opens the file itself when no bot is running.

// backupWriteTimeout bounds how long a backup client may take to read the
// copy: its read transaction must not stay open for ever.
const backupWriteTimeout = 10 * time.Minute

// DefaultBackupSocket returns the path where a running gobot serves hot
// backups of a database file (Options.BackupSocket) and where `gobot backup`
// asks for one (BackupTo): the file's path with ".sock" appended.
func DefaultBackupSocket(dbPath string) string { return dbPath + ".sock" }

// maxSocketPath is the longest backup socket path served: a Unix socket's
// path holds at most 107 bytes on Linux (103 on the BSDs), and the socket
// is bound at its path + ".new" first (serveBackups).
var maxSocketPath = len(syscall.RawSockaddrUnix{}.Path) - 1 - len(".new")

// socketTooLong says why no backup socket can be served at path, or "".
func socketTooLong(path string) string {
	if len(path) <= maxSocketPath {
		return ""
	}
	return fmt.Sprintf("the database's path is too long for its backup socket %s (%d bytes; a Unix socket's path may have %d): "+
		"put the database at a shorter path, %d bytes at most, for hot backups", path, len(path), maxSocketPath, maxSocketPath-len(".sock"))
}

// serveBackups listens on the Unix socket at path and serves a backup to
// every connection until Close. The socket is bound at a side path and
// renamed into place once it listens with mode 0600, so whoever finds a
// socket at path can connect to it: bind creates the file before listen
// accepts, and a backup started in between would be refused and take the
// file for locked by someone else.
func (s *Store) serveBackups(path string) error {
	// We hold the database's exclusive lock, so no other store serves this
	// file: a socket left at path (or the side path) is stale, from a
	// crash, and can go. Anything else there is somebody's file, and stays.
	if why := socketTooLong(path); why != "" {
		return errors.New("backup socket: " + why)
	}
	side := path + ".new"
	for _, p := range []string{path, side} {
		if err := removeStaleSocket(p); err != nil {
			return err
		}
	}
	ln, err := net.Listen("unix", side)
	if err != nil {
		return fmt.Errorf("backup socket: %w", err)
	}
	// The listener's own unlink on Close would go to the side path.
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	if err := os.Chmod(side, 0o600); err == nil {
		err = os.Rename(side, path)
	}
	if err != nil {
		ln.Close()
		os.Remove(side)
		return fmt.Errorf("backup socket: %w", err)
	}
	s.sockPath = path
	s.ln = ln
	conns := make(chan net.Conn)
	s.sockWG.Add(1)
	go func() { // accept loop: ends when Close closes the listener
		defer s.sockWG.Done()
		defer close(conns)
		for {
			c, err := ln.Accept()
			if err != nil {
				if !errors.Is(err, net.ErrClosed) {
					s.log.Error("storage: backup socket", "err", err)
				}
				return
			}
			conns <- c
		}
	}()
	s.sockWG.Add(1)
	go func() { // serves one connection at a time; ends with the accept loop
		defer s.sockWG.Done()
		for c := range conns {
			if err := s.serveBackup(c); err != nil {
				s.log.Error("storage: hot backup", "err", err)
			}
		}
	}()
	return nil
}

// removeStaleSocket removes the socket at path, if there is one; a file
// there that is not a socket is an error.
func removeStaleSocket(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil
	}
	if fi.Mode()&os.ModeSocket == 0 {
		return fmt.Errorf("backup socket %s: the path exists and is not a socket", path)
	}
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("backup socket %s: removing the stale socket: %w", path, err)
	}
	return nil
}

func (s *Store) serveBackup(c net.Conn) error {
	defer c.Close()
	c.SetWriteDeadline(time.Now().Add(backupWriteTimeout))
	served := make(chan struct{})
	defer close(served)
	go func() { // Close cuts a backup in progress short rather than wait for it
		select {
		case <-s.done:
			c.Close()
		case <-served:
		}
	}()
	return s.db.View(func(tx *bolt.Tx) error {
		if _, err := c.Write(u64(uint64(tx.Size()))); err != nil {
			return err
		}
		_, err := tx.WriteTo(c)
		return err
	})
}

// FetchBackup asks the store serving the backup socket at socketPath for a
// consistent copy of its database and writes it to w. It returns the number
// of bytes written; a copy cut short is an error.
func FetchBackup(ctx context.Context, socketPath string, w io.Writer) (int64, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", socketPath)
	if err != nil {
		return 0, fmt.Errorf("storage: backup socket: %w", err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.SetReadDeadline(time.Unix(1, 0)) })
	defer stop()
	var hdr [8]byte
	if _, err := io.ReadFull(c, hdr[:]); err != nil {
		return 0, fmt.Errorf("storage: backup socket: reading length: %w", err)
	}
	size := int64(binary.BigEndian.Uint64(hdr[:]))
	n, err := io.CopyN(w, c, size)
	if err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		return n, fmt.Errorf("storage: backup socket: got %d of %d bytes: %w", n, size, err)
	}
	return n, nil
}

// BackupTo writes a consistent copy of the database at dbPath to outPath
// atomically, whether or not a bot has it open: first through the backup
// socket at socketPath (when not empty) of the running store, and when
// nothing listens there, by opening the file read-only itself. If the file
// is locked and no socket answers, the error wraps ErrLocked. It never
// replaces a file at outPath (ErrExists: it may be the last good backup)
// and refuses a directory there (ErrInvalid), writing nothing.
func BackupTo(ctx context.Context, dbPath, socketPath, outPath string) error {
	if sameFile(dbPath, outPath) {
		return fmt.Errorf("storage: backup %s onto itself: %w", dbPath, ErrInvalid)
	}
	// An existing file may be the last good backup, so it is never
	// replaced (the final link refuses it too, should it appear while the
	// copy is written); a folder gets its own sentence, not rename's
	// "file exists".
	if fi, err := os.Stat(outPath); err == nil {
		if fi.IsDir() {
			return fmt.Errorf("storage: backup to %s: %s is a directory; name a new file in it, such as %s: %w",
				outPath, outPath, filepath.Join(outPath, filepath.Base(dbPath)), ErrInvalid)
		}
		return backupExists(outPath)
	}
	// A missing folder is said as such: its error would otherwise read as
	// a backup socket nobody serves.
	if dir := filepath.Dir(outPath); dir != "" {
		if fi, err := os.Stat(dir); err != nil {
			return fmt.Errorf("storage: backup to %s: %w", outPath, err)
		} else if !fi.IsDir() {
			return fmt.Errorf("storage: backup to %s: %s is not a folder: %w", outPath, dir, ErrInvalid)
		}
	}
	// A socket path too long to bind is served by no gobot: the file is
	// copied directly when no gobot holds it.
	tooLong := socketTooLong(socketPath)
	if socketPath != "" && tooLong == "" {
		err := writeFileAtomic(outPath, false, func(w io.Writer) (int64, error) { return FetchBackup(ctx, socketPath, w) })
		if err == nil || !noListener(err) {
			return err
		}
	}
	// A damaged file would crash bbolt as it would gobot (see checkFile).
	if exists, err := checkFile(dbPath); err != nil {
		return err
	} else if !exists {
		return fmt.Errorf("storage: backup %s: no database there: %w", dbPath, ErrNotFound)
	}
	db, err := bolt.Open(dbPath, 0o600, &bolt.Options{ReadOnly: true, Timeout: DefaultTimeout})
	if err != nil {
		if errors.Is(err, bolterrors.ErrTimeout) && tooLong != "" {
			return fmt.Errorf("storage: backup %s: the file is in use, and the gobot using it serves no hot backups: %s: %w", dbPath, tooLong, ErrLocked)
		}
		if errors.Is(err, bolterrors.ErrTimeout) {
			return fmt.Errorf("storage: backup %s: the file is in use and no backup socket answers at %q: %w: %w",
				dbPath, socketPath, ErrLocked, err)
		}
		return fmt.Errorf("storage: backup %s: %w", dbPath, err)
	}
	defer db.Close()
	return writeFileAtomic(outPath, false, func(w io.Writer) (int64, error) {
		var n int64
		err := db.View(func(tx *bolt.Tx) error {
			var err error
			n, err = tx.WriteTo(w)
			return err
		})
		return n, err
	})
}

// backupExists is the refusal of a backup to path, a file that exists.
func backupExists(path string) error {
	return fmt.Errorf("storage: backup to %s: the file exists, and may be your last good backup, so it is not replaced: remove it first, or back up to a new name: %w", path, ErrExists)
}

// noListener reports whether a dial failed because nobody serves the socket.
func noListener(err error) bool {
	return errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENOENT)
}

// writeFileAtomic writes path through write: into a temporary file beside
// it, synced, verified as a sound bbolt file (Tx.Check), renamed over path
// (or, unless replace, linked at path, which fails if a file is there:
// backupExists), and the directory synced. On failure the temporary file is
// removed and path is untouched.
func writeFileAtomic(path string, replace bool, write func(io.Writer) (int64, error)) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("storage: backup: %w", err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err = write(f); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("storage: backup: %w", err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("storage: backup: %w", err)
	}
	if err = verifyFile(tmp); err != nil {
		return fmt.Errorf("storage: backup: the copy does not check out: %w", err)
	}
	if err = publish(tmp, path, replace); err != nil {
		return err
	}
	if d, derr := os.Open(dir); derr == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// publish puts the finished temporary file tmp at path: renamed over it
// when replace, otherwise hard-linked there, which refuses an existing
// file in the same system call, then the temporary name removed. A file
// system without hard links gets a rename after a last look at path.
func publish(tmp, path string, replace bool) error {
	if !replace {
		err := os.Link(tmp, path)
		if errors.Is(err, os.ErrExist) {
			return backupExists(path)
		}
		if err == nil {
			os.Remove(tmp)
			return nil
		}
		if _, serr := os.Lstat(path); !errors.Is(serr, os.ErrNotExist) {
			return backupExists(path)
		}
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("storage: backup: %w", err)
	}
	return nil
}

// verifyFile checks a bbolt file's header and size (checkFile), then opens
// it read-only and runs Tx.Check on it.
func verifyFile(path string) error {
	if _, err := checkFile(path); err != nil {
		return err
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: DefaultTimeout})
	if err != nil {
		return err
	}
	defer db.Close()
	return db.View(func(tx *bolt.Tx) error {
		var errs []error
		for err := range tx.Check() {
			errs = append(errs, err)
		}
		return errors.Join(errs...)
	})
}

// sameFile reports whether two paths name the same file: a backup written
// over the live database would be renamed over it and silently lose every
// later write.
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	return errA == nil && errB == nil && absA == absB
}
