// Package testdb gives each test package its own PostgreSQL database, cloned
// from a migrated template, so packages run in parallel against a real
// server. Set TEST_DATABASE_URL to a role that may create databases (the
// Makefile points it at the project-local cluster).
package testdb

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/markwell/markwell/internal/migrate"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/migrations"
)

var (
	dbURL    string
	poolOnce sync.Once
	pool     *pgxpool.Pool
	poolErr  error
)

// Main creates the package's database, runs the tests and drops it. Call it
// from TestMain: `func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }`.
func Main(m *testing.M) int {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	name, err := create(ctx)
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testdb:", err)
		return 1
	}
	code := m.Run()
	if pool != nil {
		pool.Close()
	}
	ctx, cancel = context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := drop(ctx, name); err != nil {
		fmt.Fprintln(os.Stderr, "testdb: drop:", err)
	}
	return code
}

// URL is the connection string of the package's database.
func URL() string { return dbURL }

// Pool returns a connection pool to the package's database, shared by the
// package's tests.
func Pool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	if dbURL == "" {
		t.Fatal("testdb: no database; call testdb.Main from TestMain")
	}
	poolOnce.Do(func() {
		cfg, err := store.ParseConfig(dbURL)
		if err != nil {
			poolErr = err
			return
		}
		cfg.MaxConns = 16
		pool, poolErr = pgxpool.NewWithConfig(context.Background(), cfg)
	})
	if poolErr != nil {
		t.Fatalf("testdb: pool: %v", poolErr)
	}
	return pool
}

// Isolated gives one test a database of its own, dropped when the test ends.
// Use it where tests would otherwise see each other's rows, such as River
// workers that take any job from a queue.
func Isolated(t testing.TB) *pgxpool.Pool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	admin, err := adminURL()
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := templateName()
	if err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatalf("testdb: connect: %v", err)
	}
	defer conn.Close(ctx)
	name := randomName()
	// CREATE DATABASE … TEMPLATE fails while another session copies the same
	// template, so copies take turns.
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock(4242002)"); err != nil {
		t.Fatalf("testdb: lock: %v", err)
	}
	_, err = conn.Exec(ctx, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", name, tmpl))
	_, _ = conn.Exec(ctx, "SELECT pg_advisory_unlock(4242002)")
	if err != nil {
		t.Fatalf("testdb: create database: %v", err)
	}
	u, err := withDatabase(admin, name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := store.NewPool(ctx, u)
	if err != nil {
		t.Fatalf("testdb: pool: %v", err)
	}
	t.Cleanup(func() {
		p.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := drop(ctx, name); err != nil {
			t.Logf("testdb: drop %s: %v", name, err)
		}
	})
	return p
}

func randomName() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "markwell_test_" + hex.EncodeToString(b)
}

func adminURL() (string, error) {
	for _, k := range []string{"TEST_DATABASE_URL", "DATABASE_URL"} {
		if v := os.Getenv(k); v != "" {
			return v, nil
		}
	}
	return "", fmt.Errorf("TEST_DATABASE_URL is not set; run the tests with `make test`, or point it at a PostgreSQL role that may create databases")
}

func withDatabase(raw, name string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("parse database url: %w", err)
	}
	u.Path = "/" + name
	return u.String(), nil
}

// templateName changes whenever a migration changes, so a stale template is
// never reused.
func templateName() (string, error) {
	h := sha256.New()
	err := fs.WalkDir(migrations.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		f, err := migrations.FS.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		_, _ = io.WriteString(h, path)
		_, err = io.Copy(h, f)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("hash migrations: %w", err)
	}
	return "markwell_tmpl_" + hex.EncodeToString(h.Sum(nil))[:16], nil
}

func create(ctx context.Context) (string, error) {
	admin, err := adminURL()
	if err != nil {
		return "", err
	}
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return "", fmt.Errorf("connect to %s: %w", redact(admin), err)
	}
	defer conn.Close(ctx)

	tmpl, err := templateName()
	if err != nil {
		return "", err
	}
	// One package at a time builds the template; the others wait and reuse it.
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock(4242001)"); err != nil {
		return "", fmt.Errorf("lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock(4242001)") //nolint:errcheck

	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", tmpl).Scan(&exists); err != nil {
		return "", fmt.Errorf("look up template: %w", err)
	}
	if !exists {
		if err := buildTemplate(ctx, conn, admin, tmpl); err != nil {
			return "", err
		}
	}

	name := randomName()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock(4242002)"); err != nil {
		return "", fmt.Errorf("lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock(4242002)") //nolint:errcheck
	if _, err := conn.Exec(ctx, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", name, tmpl)); err != nil {
		return "", fmt.Errorf("create test database: %w", err)
	}
	dbURL, err = withDatabase(admin, name)
	return name, err
}

func buildTemplate(ctx context.Context, conn *pgx.Conn, admin, tmpl string) error {
	// Drop templates of other migration sets that nobody has built for a
	// day: another checkout (a branch with a new migration) may be testing
	// against its own template on the same server right now.
	rows, err := conn.Query(ctx, `SELECT datname, coalesce(shobj_description(oid, 'pg_database'), '')
		FROM pg_database WHERE datname LIKE 'markwell_tmpl_%'`)
	if err != nil {
		return fmt.Errorf("list templates: %w", err)
	}
	type tmplRow struct{ Name, Comment string }
	old, err := pgx.CollectRows(rows, pgx.RowToStructByPos[tmplRow])
	if err != nil {
		return fmt.Errorf("list templates: %w", err)
	}
	for _, o := range old {
		if built, ok := builtAt(o.Comment); ok && time.Since(built) < templateKeep {
			continue
		}
		_, _ = conn.Exec(ctx, fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", o.Name))
	}

	building := tmpl + "_build"
	_, _ = conn.Exec(ctx, fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", building))
	if _, err := conn.Exec(ctx, fmt.Sprintf("CREATE DATABASE %s", building)); err != nil {
		return fmt.Errorf("create template: %w", err)
	}
	u, err := withDatabase(admin, building)
	if err != nil {
		return err
	}
	p, err := store.NewPool(ctx, u)
	if err != nil {
		return fmt.Errorf("connect to template: %w", err)
	}
	err = migrate.Up(ctx, p, slog.New(slog.NewTextHandler(io.Discard, nil)))
	p.Close()
	if err != nil {
		return fmt.Errorf("migrate template: %w", err)
	}
	if _, err := conn.Exec(ctx, fmt.Sprintf("COMMENT ON DATABASE %s IS '%s%s'", building, builtPrefix, time.Now().UTC().Format(time.RFC3339))); err != nil {
		return fmt.Errorf("date template: %w", err)
	}
	if _, err := conn.Exec(ctx, fmt.Sprintf("ALTER DATABASE %s RENAME TO %s", building, tmpl)); err != nil {
		return fmt.Errorf("rename template: %w", err)
	}
	return nil
}

// templateKeep is how long a template of another migration set is kept.
const templateKeep = 24 * time.Hour

const builtPrefix = "markwell test template built "

// builtAt reads the time a template's comment says it was built.
func builtAt(comment string) (time.Time, bool) {
	rest, ok := strings.CutPrefix(comment, builtPrefix)
	if !ok {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, rest)
	return t, err == nil
}

func drop(ctx context.Context, name string) error {
	admin, err := adminURL()
	if err != nil {
		return err
	}
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", name))
	return err
}

func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "the database"
	}
	return u.Redacted()
}
