package main

import (
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestSafeRetryLocationMatchesOnlyTheReads(t *testing.T) {
	re := regexp.MustCompile(safeRetryLocation())
	for _, p := range safeRetryPaths {
		if !re.MatchString(p) {
			t.Errorf("%s is a read but nginx would not retry it", p)
		}
	}
	// writes, and reads of other shapes, must never be sent twice
	for _, p := range []string{
		"/api/v1/lambda/runFunctionOnMany",
		"/api/v1/db/assignment/update-submissions",
		"/api/v1/db/assignment/put",
		"/api/v1/db/team/remove-member",
		"/api/v1/db/functionResult/update",
		"/api/v1/db/assignment/get/x",
		"/x/api/v1/db/assignment/get",
		"/api/v1/db/assignment/getter",
		"/api/auth/signout",
	} {
		if re.MatchString(p) {
			t.Errorf("nginx would retry %s on the other replica", p)
		}
	}
}

func TestRenderNginx(t *testing.T) {
	conf, err := renderNginx(proxyConfig{Listen: "127.0.0.1:8080", Upstreams: []string{"127.0.0.1:9001", "127.0.0.1:9002"}, Dir: "/tmp/x"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"listen 127.0.0.1:8080;",
		"server 127.0.0.1:9001 max_fails=1 fail_timeout=5s;",
		"server 127.0.0.1:9002 max_fails=1 fail_timeout=5s;",
		"proxy_next_upstream error timeout;",
		"proxy_next_upstream error timeout non_idempotent;",
		"location ~ " + safeRetryLocation() + " {",
		"access_log /tmp/x/access.log markwell;",
		"client_max_body_size 62914560;",
	} {
		if !strings.Contains(conf, want) {
			t.Errorf("nginx.conf lacks %q:\n%s", want, conf)
		}
	}
	// non_idempotent only inside the reads' location
	if n := strings.Count(conf, "non_idempotent"); n != 1 {
		t.Errorf("non_idempotent appears %d times, want once (the reads' location)", n)
	}
	if _, err := renderNginx(proxyConfig{Listen: "127.0.0.1:1", Dir: "/tmp"}); err == nil {
		t.Error("no upstream: want an error")
	}
}

// nginx itself accepts the rendered file (when it is installed).
func TestRenderedNginxPassesNginxT(t *testing.T) {
	bin, err := exec.LookPath("nginx")
	if err != nil {
		if bin, err = exec.LookPath("/usr/sbin/nginx"); err != nil {
			t.Skip("nginx is not installed")
		}
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	conf, err := renderNginx(proxyConfig{Listen: "127.0.0.1:1", Upstreams: []string{"127.0.0.1:2", "127.0.0.1:3"}, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-t", "-q", "-p", dir, "-c", path, "-e", filepath.Join(dir, "error.log")).CombinedOutput()
	if err != nil {
		t.Fatalf("nginx -t: %v\n%s", err, out)
	}
}

// deploy/scale/nginx.conf retries the same reads as the tested one.
func TestDeployNginxRetriesTheSameReads(t *testing.T) {
	b, err := os.ReadFile("../../deploy/scale/nginx.conf")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "location ~ "+safeRetryLocation()+" {") {
		t.Errorf("deploy/scale/nginx.conf does not retry exactly %s", safeRetryLocation())
	}
	if !strings.Contains(string(b), "proxy_next_upstream error timeout non_idempotent;") {
		t.Error("deploy/scale/nginx.conf: the reads' location does not retry")
	}
}

func TestRenderPgBouncer(t *testing.T) {
	ini, users, err := renderPgBouncer(poolerConfig{Listen: "127.0.0.1:6432", Server: "postgres://markwell:s3cr'et@db.internal:5433/markwell_x?sslmode=disable", Dir: "/run/pgb"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"markwell_x = host=db.internal port=5433 dbname=markwell_x user=markwell password='s3cr\\'et'",
		"listen_addr = 127.0.0.1",
		"listen_port = 6432",
		"pool_mode = transaction",
		"auth_file = /run/pgb/userlist.txt",
		"default_pool_size = 20",
	} {
		if !strings.Contains(ini, want) {
			t.Errorf("pgbouncer.ini lacks %q:\n%s", want, ini)
		}
	}
	if users != "\"markwell\" \"\"\n" {
		t.Errorf("userlist.txt = %q", users)
	}
	// no password: none written; default port
	ini, _, err = renderPgBouncer(poolerConfig{Listen: "127.0.0.1:6432", Server: "postgres://postgres@127.0.0.1/db1"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ini, "db1 = host=127.0.0.1 port=5432 dbname=db1 user=postgres\n") {
		t.Errorf("pgbouncer.ini:\n%s", ini)
	}
	for _, bad := range []string{"postgres://127.0.0.1/db", "postgres://u@127.0.0.1/", "::"} {
		if _, _, err := renderPgBouncer(poolerConfig{Listen: "127.0.0.1:1", Server: bad}); err == nil {
			t.Errorf("%s: want an error", bad)
		}
	}
}

func TestViaPgBouncer(t *testing.T) {
	got, err := viaPgBouncer("postgres://postgres@127.0.0.1:5432/markwell_x?sslmode=disable", "127.0.0.1:6432", "markwell-api-a")
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(got)
	if u.Host != "127.0.0.1:6432" || u.Path != "/markwell_x" || u.User.Username() != "postgres" {
		t.Errorf("URL %s", got)
	}
	q := u.Query()
	if q.Get("default_query_exec_mode") != "cache_describe" || q.Get("sslmode") != "disable" || q.Get("application_name") != "markwell-api-a" {
		t.Errorf("query %v", q)
	}
}

func TestTallyAccessLog(t *testing.T) {
	log := strings.Join([]string{
		"127.0.0.1:9001\t200\t200\tPOST\t/api/v1/db/assignment/get\t0.004",
		"127.0.0.1:9002\t200\t200\tGET\t/api/v1/db/user/get\t0.002",
		// api-a died under a read: nginx sent it to api-b
		"127.0.0.1:9001, 127.0.0.1:9002\t502, 200\t200\tPOST\t/api/v1/db/assignment/get\t0.010",
		// a write in flight on the dead replica is not sent again
		"127.0.0.1:9001\t502\t502\tPOST\t/api/v1/lambda/runFunctionOnMany\t0.020",
		// both down
		"127.0.0.1:9001, 127.0.0.1:9002\t502, 502\t502\tGET\t/healthz\t0.001",
		"-\t-\t404\tGET\t/nowhere\t0.000",
		"garbage",
		"",
	}, "\n")
	got := tallyAccessLog(log)
	if got.Requests != 6 || got.Retried != 2 || got.RetriedOK != 1 || got.Failed != 2 {
		t.Errorf("tally %+v", got)
	}
	if got.PerReplica["127.0.0.1:9001"] != 2 || got.PerReplica["127.0.0.1:9002"] != 3 {
		t.Errorf("per replica %v", got.PerReplica)
	}
	if got.FailedList[0].Path != "/api/v1/lambda/runFunctionOnMany" || got.FailedList[0].Statuses[0] != "502" {
		t.Errorf("failed %+v", got.FailedList)
	}
}
