package storage

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// The on-disk layout of a bbolt file that verifyFile reads (bbolt's
// internal/common; the version 2 format, in the machine's byte order).
const (
	boltMagic        = 0xED0CDAED
	boltVersion      = 2
	pageHeaderSize   = 16 // id 8, flags 2, count 2, overflow 4
	metaSize         = 64 // magic 4, version 4, page size 4, flags 4, root 16, freelist 8, pgid 8, txid 8, checksum 8
	metaChecksumEnd  = 56 // the checksum covers the meta up to itself
	metaPageFlag     = 0x04
	freelistPageFlag = 0x10
	noFreelist       = 0xffffffffffffffff
	branchPageFlag   = 0x01
	leafPageFlag     = 0x02
	elementSize      = 16 // a branch element: pos 4, ksize 4, pgid 8; a leaf element: flags 4, pos 4, ksize 4, vsize 4
	bucketLeafFlag   = 0x01
	bucketHeaderSize = 16 // a bucket value: root page 8 (0 for an inline bucket, whose page follows), sequence 8
)

// restoreHint ends every ErrDamaged message.
const restoreHint = "restore the copy made by `gobot backup` (or move the file away to start an empty database)"

// boltMeta is the part of a meta page verifyFile uses.
type boltMeta struct {
	pageSize uint32
	root     uint64 // the root bucket's page
	freelist uint64
	pgid     uint64 // high-water mark: pages the file must hold
	txid     uint64
}

// checkFile checks, before bbolt maps it, that the existing file at path is
// a whole bbolt database: a valid meta page (magic, version, checksum), a
// size that holds every page the meta page counts, and a readable free
// list. bbolt trusts all three, and a file cut short makes it fault
// (SIGBUS) on the first page past the end. It reports whether the path
// exists; a path that does not exist is a new database.
func checkFile(path string) (exists bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return true, fmt.Errorf("storage: open %s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return true, fmt.Errorf("storage: open %s: %w", path, err)
	}
	damaged := func(format string, a ...any) error {
		return fmt.Errorf("storage: %s %s; %s: %w", path, fmt.Sprintf(format, a...), restoreHint, ErrDamaged)
	}
	size := fi.Size()
	if fi.IsDir() {
		return true, fmt.Errorf("storage: %s is a directory, not a database file: %w", path, ErrInvalid)
	}
	if !fi.Mode().IsRegular() {
		return true, damaged("is not a regular file")
	}
	if size == 0 {
		return true, damaged("exists but is empty (0 bytes), so it is not a gobot database and holds no games")
	}
	// Meta page 0 is at offset 0; meta page 1 one page further, where the
	// page size is read from a valid meta 0 or, failing that, guessed.
	m0, err0 := readMeta(f, 0)
	off1 := int64(os.Getpagesize())
	if err0 == nil {
		off1 = int64(m0.pageSize)
	}
	m1, err1 := readMeta(f, off1)
	var m boltMeta
	switch {
	case err0 == nil && err1 == nil:
		m = m0
		if m1.txid > m0.txid {
			m = m1
		}
	case err0 == nil:
		m = m0
	case err1 == nil:
		m = m1
	default:
		return true, damaged("is not a gobot database (%d bytes, no valid bbolt header: %v)", size, err0)
	}
	ps := int64(m.pageSize)
	if want := int64(m.pgid) * ps; size < want {
		return true, damaged("is truncated: %d bytes where its header counts %d pages of %d bytes (%d bytes)", size, m.pgid, ps, want)
	}
	if m.freelist != noFreelist {
		if err := checkFreelist(f, m); err != nil {
			return true, damaged("has a damaged free list: %v", err)
		}
	}
	if err := (&treeWalk{r: f, m: m, seen: map[uint64]bool{}}).page(m.root, 0); err != nil {
		return true, damaged("has damaged pages: %v", err)
	}
	return true, nil
}

// treeWalk reads every page of the B+trees of a bbolt file through the
// file (not a mapping) and checks what bbolt would otherwise trust when it
// follows them: page ids below the high-water mark, each page reached
// once, branch and leaf types, and every key and value inside its page.
// bbolt's own Tx.Check reads keys through the mapping where an element
// points, so one flipped byte in an element faults the process (a fatal
// SIGSEGV or SIGBUS, which no recover catches) before it can say the file
// is damaged.
type treeWalk struct {
	r    io.ReaderAt
	m    boltMeta
	seen map[uint64]bool
}

// maxTreeDepth bounds the walk: bbolt's trees are a few levels deep, and
// buckets nest a few levels in gobot's schema.
const maxTreeDepth = 64

// page checks the page id and the pages under it, depth levels down.
func (w *treeWalk) page(id uint64, depth int) error {
	if depth > maxTreeDepth {
		return fmt.Errorf("page %d: the tree is more than %d levels deep", id, maxTreeDepth)
	}
	if id < 2 || id >= w.m.pgid {
		return fmt.Errorf("a page points to page %d of %d", id, w.m.pgid)
	}
	if w.seen[id] {
		return fmt.Errorf("page %d is reached twice", id)
	}
	w.seen[id] = true
	ps := int64(w.m.pageSize)
	var hdr [pageHeaderSize]byte
	if _, err := w.r.ReadAt(hdr[:], int64(id)*ps); err != nil {
		return fmt.Errorf("page %d: %w", id, err)
	}
	le := binary.NativeEndian
	if got := le.Uint64(hdr[0:]); got != id {
		return fmt.Errorf("page %d says it is page %d", id, got)
	}
	overflow := uint64(le.Uint32(hdr[12:]))
	if id+overflow >= w.m.pgid {
		return fmt.Errorf("page %d runs %d pages past the end", id, overflow)
	}
	buf := make([]byte, int64(overflow+1)*ps)
	if _, err := w.r.ReadAt(buf, int64(id)*ps); err != nil {
		return fmt.Errorf("page %d: %w", id, err)
	}
	return w.elements(buf, fmt.Sprintf("page %d", id), depth)
}

// elements checks the elements of the page in buf (a page of the file, or
// an inline bucket's page inside a value) and walks the pages they point
// to.
func (w *treeWalk) elements(buf []byte, name string, depth int) error {
	le := binary.NativeEndian
	if len(buf) < pageHeaderSize {
		return fmt.Errorf("%s: %d bytes, shorter than a page header", name, len(buf))
	}
	flags, count := le.Uint16(buf[8:]), int(le.Uint16(buf[10:]))
	if flags != branchPageFlag && flags != leafPageFlag {
		return fmt.Errorf("%s: type %#x where a branch or leaf page belongs", name, flags)
	}
	if pageHeaderSize+count*elementSize > len(buf) {
		return fmt.Errorf("%s: %d elements do not fit in %d bytes", name, count, len(buf))
	}
	// inside reports whether n bytes from at lie in buf.
	inside := func(at, n uint64) bool { return at <= uint64(len(buf)) && n <= uint64(len(buf))-at }
	for i := range count {
		e := pageHeaderSize + i*elementSize
		pos, ksize := uint64(le.Uint32(buf[e+4:])), uint64(le.Uint32(buf[e+8:]))
		if flags == branchPageFlag {
			pos, ksize = uint64(le.Uint32(buf[e:])), uint64(le.Uint32(buf[e+4:]))
		}
		key := uint64(e) + pos
		if !inside(key, ksize) {
			return fmt.Errorf("%s: element %d's key (%d bytes at %d) lies outside the page", name, i, ksize, key)
		}
		if flags == branchPageFlag {
			if err := w.page(le.Uint64(buf[e+8:]), depth+1); err != nil {
				return err
			}
			continue
		}
		vsize := uint64(le.Uint32(buf[e+12:]))
		val := key + ksize
		if !inside(val, vsize) {
			return fmt.Errorf("%s: element %d's value (%d bytes at %d) lies outside the page", name, i, vsize, val)
		}
		if le.Uint32(buf[e:])&bucketLeafFlag == 0 {
			continue
		}
		if vsize < bucketHeaderSize {
			return fmt.Errorf("%s: element %d is a bucket of %d bytes", name, i, vsize)
		}
		v := buf[val : val+vsize]
		if root := le.Uint64(v); root != 0 {
			if err := w.page(root, depth+1); err != nil {
				return err
			}
		} else if err := w.elements(v[bucketHeaderSize:], name+" (an inline bucket)", depth+1); err != nil {
			return err
		}
	}
	return nil
}

// readMeta reads and validates the meta page at off.
func readMeta(r io.ReaderAt, off int64) (boltMeta, error) {
	var buf [pageHeaderSize + metaSize]byte
	if _, err := r.ReadAt(buf[:], off); err != nil {
		return boltMeta{}, fmt.Errorf("meta page at %d: %w", off, err)
	}
	le := binary.NativeEndian
	if flags := le.Uint16(buf[8:]); flags != metaPageFlag {
		return boltMeta{}, fmt.Errorf("meta page at %d: page type %#x", off, flags)
	}
	b := buf[pageHeaderSize:]
	if le.Uint32(b[0:]) != boltMagic || le.Uint32(b[4:]) != boltVersion {
		return boltMeta{}, fmt.Errorf("meta page at %d: not a bbolt version %d header", off, boltVersion)
	}
	h := fnv.New64a()
	h.Write(b[:metaChecksumEnd])
	if h.Sum64() != le.Uint64(b[metaChecksumEnd:]) {
		return boltMeta{}, fmt.Errorf("meta page at %d: checksum mismatch", off)
	}
	m := boltMeta{pageSize: le.Uint32(b[8:]), root: le.Uint64(b[16:]), freelist: le.Uint64(b[32:]), pgid: le.Uint64(b[40:]), txid: le.Uint64(b[48:])}
	if m.pageSize < 512 || m.pageSize > 1<<16 || m.pageSize&(m.pageSize-1) != 0 {
		return boltMeta{}, fmt.Errorf("meta page at %d: page size %d", off, m.pageSize)
	}
	if m.pgid < 2 {
		return boltMeta{}, fmt.Errorf("meta page at %d: %d pages", off, m.pgid)
	}
	return m, nil
}

// checkFreelist verifies the free-list page that bbolt reads at open: its
// type, that it lies below the high-water mark, and that every free page
// it lists does too.
func checkFreelist(r io.ReaderAt, m boltMeta) error {
	ps := int64(m.pageSize)
	if m.freelist < 2 || m.freelist >= m.pgid {
		return fmt.Errorf("free list at page %d of %d", m.freelist, m.pgid)
	}
	var hdr [pageHeaderSize + 8]byte
	if _, err := r.ReadAt(hdr[:], int64(m.freelist)*ps); err != nil {
		return err
	}
	le := binary.NativeEndian
	if flags := le.Uint16(hdr[8:]); flags != freelistPageFlag {
		return fmt.Errorf("page %d is of type %#x, not a free list", m.freelist, flags)
	}
	overflow := uint64(le.Uint32(hdr[12:]))
	if m.freelist+overflow >= m.pgid {
		return fmt.Errorf("free list at page %d runs %d pages past the end", m.freelist, overflow)
	}
	count, start := uint64(le.Uint16(hdr[10:])), int64(pageHeaderSize)
	if count == 0xffff { // the real count is in the first element
		count, start = le.Uint64(hdr[pageHeaderSize:]), pageHeaderSize+8
	}
	room := (int64(overflow)+1)*ps - start
	if int64(count) > room/8 {
		return fmt.Errorf("free list at page %d lists %d pages, more than it holds", m.freelist, count)
	}
	ids := make([]byte, count*8)
	if _, err := r.ReadAt(ids, int64(m.freelist)*ps+start); err != nil {
		return err
	}
	for i := 0; i < len(ids); i += 8 {
		if id := le.Uint64(ids[i:]); id < 2 || id >= m.pgid {
			return fmt.Errorf("free list names page %d of %d", id, m.pgid)
		}
	}
	return nil
}

// Ping runs a read transaction that reads the schema version: the cheap
// proof, for a health check, that the store is open and its file readable.
func (s *Store) Ping(ctx context.Context) error {
	return s.view(ctx, func(tx *bolt.Tx) error {
		if tx.Bucket(bucketMeta) == nil || len(tx.Bucket(bucketMeta).Get(keySchema)) != 8 {
			return fmt.Errorf("storage: ping %s: no schema version: %w", s.path, ErrCorrupt)
		}
		return nil
	})
}

// CheckPages verifies the file as Open does, while the store is in use:
// bbolt's Tx.Check in one read transaction (every page reachable or free,
// none used twice, keys in order). Unlike Check it does not decode the
// records, so one damaged record (which gobot sets aside when it reads
// it) does not fail it; its cost grows with the file, so it is for a
// background check, not for every request. A damaged page is ErrDamaged.
func (s *Store) CheckPages(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return closedErr(checkPages(s.db, s.path))
}

// checkPages runs bbolt's Tx.Check on an opened file: every page reachable
// or free, none used twice, keys in order. bbolt recovers its own panics on
// a damaged page into errors; the first one is reported, on one line.
func checkPages(db *bolt.DB, path string) error {
	return db.View(func(tx *bolt.Tx) error {
		var first error
		n := 0
		for err := range tx.Check() {
			if first == nil {
				first = err
			}
			n++
		}
		if first == nil {
			return nil
		}
		msg := strings.ReplaceAll(first.Error(), "\n", " ")
		if n > 1 {
			msg += fmt.Sprintf(" (and %d more problems)", n-1)
		}
		return fmt.Errorf("storage: %s has damaged pages: %s; %s: %w", path, msg, restoreHint, ErrDamaged)
	})
}
