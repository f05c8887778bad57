package pgtest

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvURL names a server to use instead of starting a cluster. Its user
// must be allowed to create databases.
const EnvURL = "GOBOT_TEST_DATABASE_URL"

var (
	inMain  atomic.Bool
	once    sync.Once
	admin   string // URL of the maintenance database
	base    string // URL of this test binary's database; "" when there is none
	reason  string // why there is no server, when base is ""
	cluster *running
	seq     atomic.Int64
)

// running is a cluster this process started.
type running struct {
	dir, data, pgctl string
	cred             *syscall.Credential
}

// Main runs the tests and then stops the cluster if one was started. Use it
// from TestMain.
func Main(m *testing.M) int {
	inMain.Store(true)
	code := m.Run()
	if base != "" && cluster == nil {
		// On a server we did not start, leave no database behind.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		exec1(ctx, admin, "DROP DATABASE IF EXISTS "+dbName()+" WITH (FORCE)")
		cancel()
	}
	if cluster != nil {
		cluster.stop()
	}
	return code
}

// dbName is this test binary's database.
func dbName() string { return fmt.Sprintf("gobot_test_%d", os.Getpid()) }

// Database returns the URL of a new, empty database for t, dropped when t
// ends. It skips t, saying why, when no PostgreSQL is available.
//
// The database is a schema of its own (the URL sets search_path to it)
// in one database per test binary: creating a schema is instant where
// CREATE DATABASE copies a template, and it needs no right to create
// databases on a server given by GOBOT_TEST_DATABASE_URL.
func Database(t testing.TB) string {
	t.Helper()
	if !inMain.Load() {
		t.Fatal("pgtest: the package's TestMain must run the tests through pgtest.Main")
	}
	once.Do(setup)
	if base == "" {
		t.Skipf("pgtest: no PostgreSQL for this test: %s", reason)
	}
	name := fmt.Sprintf("t%d", seq.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := exec1(ctx, base, "CREATE SCHEMA "+name); err != nil {
		t.Fatalf("pgtest: create schema: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := exec1(ctx, base, "DROP SCHEMA IF EXISTS "+name+" CASCADE"); err != nil {
			t.Logf("pgtest: drop schema %s: %v", name, err)
		}
	})
	u, _ := url.Parse(base)
	q := u.Query()
	q.Set("search_path", name)
	u.RawQuery = q.Encode()
	return u.String()
}

// exec1 runs one statement on the database at url.
func exec1(ctx context.Context, url, sql string) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(ctx, sql)
	return err
}

// setup finds or starts a server and creates this binary's database, once
// per test binary.
func setup() {
	findServer()
	if admin == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := exec1(ctx, admin, "CREATE DATABASE "+dbName()); err != nil {
		reason = fmt.Sprintf("create database %s: %v", dbName(), err)
		return
	}
	u, _ := url.Parse(admin)
	u.Path = "/" + dbName()
	base = u.String()
}

// findServer sets admin to GOBOT_TEST_DATABASE_URL or to a cluster it
// starts, or reason to why there is none.
func findServer() {
	if u := os.Getenv(EnvURL); u != "" {
		admin = u
		return
	}
	bin, why := binaries()
	if bin == "" {
		reason = why + "; install Debian's postgresql package or set " + EnvURL
		return
	}
	c, err := start(bin)
	if err != nil {
		reason = fmt.Sprintf("could not start a cluster from %s: %v", bin, err)
		return
	}
	cluster = c
}

// binaries finds the directory of initdb and pg_ctl: Debian keeps them out
// of PATH, under /usr/lib/postgresql/VERSION/bin.
func binaries() (dir, why string) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, ""
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), ""
	}
	return "", "no initdb in /usr/lib/postgresql/*/bin or PATH"
}

func version(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

// start makes a cluster in a temporary directory and starts it on a free
// loopback port, without fsync (a test cluster need not survive a crash).
func start(bin string) (*running, error) {
	dir, err := os.MkdirTemp("", "gobot-pgtest-")
	if err != nil {
		return nil, err
	}
	c := &running{dir: dir, data: filepath.Join(dir, "data"), pgctl: filepath.Join(bin, "pg_ctl")}
	fail := func(err error) (*running, error) {
		os.RemoveAll(dir)
		return nil, err
	}
	if os.Geteuid() == 0 {
		// initdb refuses to run as root.
		u, err := user.Lookup("postgres")
		if err != nil {
			return fail(fmt.Errorf("running as root and no postgres user: %w", err))
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chown(dir, uid, gid); err != nil {
			return fail(err)
		}
	}
	port, err := freePort()
	if err != nil {
		return fail(err)
	}
	if out, err := c.run(filepath.Join(bin, "initdb"), "-D", c.data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"); err != nil {
		return fail(fmt.Errorf("initdb: %w: %s", err, out))
	}
	opts := fmt.Sprintf("-p %d -k '' -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200", port)
	if out, err := c.run(c.pgctl, "-D", c.data, "-o", opts, "-l", filepath.Join(dir, "log"), "-w", "-t", "60", "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		return fail(fmt.Errorf("pg_ctl start: %w: %s %s", err, out, log))
	}
	admin = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
	return c, nil
}

func (c *running) run(name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = c.dir
	if c.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	}
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

func (c *running) stop() {
	c.run(c.pgctl, "-D", c.data, "-m", "immediate", "-w", "stop")
	os.RemoveAll(c.dir)
}

// freePort asks the kernel for a loopback port nobody listens on.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// Silent listens on loopback and accepts connections that it never
// answers, as a PostgreSQL stopped with SIGSTOP (or a firewall dropping
// what it gets) does; it returns the address. It closes the listener
// and the connections when t ends.
func Silent(t testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return ln.Addr().String()
}
