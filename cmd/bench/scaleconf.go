package main

import (
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"
)

// The configurations of the multi-process layout (`make test-scale`,
// docs/operations.md "Running more than one process"): nginx in front of
// the API replicas, PgBouncer in front of PostgreSQL. deploy/scale holds the
// same files for a real deployment.

// safeRetryPaths are the POST routes that only read: nginx may send them to
// the other replica when the first one failed after the request reached it
// (`proxy_next_upstream … non_idempotent`). Every other POST is a write (or
// starts one: grade-all, an upload's record, a sign-out) that may already
// have committed on the replica that died, so nginx retries it only when it
// never reached a replica (connection refused, connect timeout), which
// nginx does for any method.
var safeRetryPaths = []string{
	"/api/v1/db/assignment/get",
	"/api/v1/db/function/get",
	"/api/v1/db/functionResult/get",
	"/api/v1/db/rubric/get",
	"/api/v1/db/submission/get",
}

// safeRetryLocation is the nginx location that matches safeRetryPaths
// exactly, e.g. `^/api/v1/db/(assignment|function|…)/get$`.
func safeRetryLocation() string {
	var areas []string
	for _, p := range safeRetryPaths {
		areas = append(areas, strings.TrimSuffix(strings.TrimPrefix(p, "/api/v1/db/"), "/get"))
	}
	sort.Strings(areas)
	return "^/api/v1/db/(" + strings.Join(areas, "|") + ")/get$"
}

// proxyConfig is one nginx in front of the API replicas.
type proxyConfig struct {
	Listen    string   // host:port nginx listens on
	Upstreams []string // the API replicas, host:port
	Dir       string   // pid, logs and temporary files
	// MaxBody is client_max_body_size in bytes: at least MAX_UPLOAD_BYTES
	// (uploads go through the proxy to the local file store).
	MaxBody int64
}

// nginxAccessFormat is the access log's line: the replica(s) tried, their
// statuses, nginx's status, the method and the path, tab-separated. A
// request nginx retried names two replicas ("a:1, b:2").
const nginxAccessFormat = `$upstream_addr\t$upstream_status\t$status\t$request_method\t$uri\t$request_time`

// renderNginx writes nginx.conf for c.
func renderNginx(c proxyConfig) (string, error) {
	if len(c.Upstreams) == 0 {
		return "", fmt.Errorf("nginx: no upstream")
	}
	if c.Listen == "" || c.Dir == "" {
		return "", fmt.Errorf("nginx: listen address and directory are required")
	}
	var servers strings.Builder
	for _, u := range c.Upstreams {
		// One failure takes a replica out for 5 s; nginx then tries it again
		// with one request, so a replica that comes back gets traffic.
		fmt.Fprintf(&servers, "        server %s max_fails=1 fail_timeout=5s;\n", u)
	}
	maxBody := c.MaxBody
	if maxBody <= 0 {
		maxBody = 60 << 20
	}
	d := c.Dir
	return fmt.Sprintf(`# Rendered by cmd/bench (make test-scale); deploy/scale/nginx.conf is the same for a deployment.
daemon off;
worker_processes 1;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log warn;
events { worker_connections 1024; }
http {
    client_body_temp_path %[1]s/tmp/body;
    proxy_temp_path %[1]s/tmp/proxy;
    fastcgi_temp_path %[1]s/tmp/fastcgi;
    uwsgi_temp_path %[1]s/tmp/uwsgi;
    scgi_temp_path %[1]s/tmp/scgi;
    log_format markwell '%[2]s';
    access_log %[1]s/access.log markwell;

    upstream markwell_api {
%[3]s        keepalive 64;
    }

    server {
        listen %[4]s;
        client_max_body_size %[5]d;
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_connect_timeout 2s;
        # chat answers stream (the API sends X-Accel-Buffering: no)
        proxy_read_timeout 300s;
        # A replica that refuses the connection or does not accept it in
        # time never saw the request: try the other one, for any method.
        proxy_next_upstream error timeout;
        proxy_next_upstream_tries 2;

        location / {
            proxy_pass http://markwell_api;
        }
        # POST reads: safe to send again even when the first replica died
        # after receiving them.
        location ~ %[6]s {
            proxy_pass http://markwell_api;
            proxy_next_upstream error timeout non_idempotent;
        }
    }
}
`, d, nginxAccessFormat, servers.String(), c.Listen, maxBody, safeRetryLocation()), nil
}

// poolerConfig is one PgBouncer in transaction mode in front of a database.
type poolerConfig struct {
	Listen   string // host:port
	Server   string // postgres://user[:password]@host:port/db URL of the real server
	Dir      string // userlist.txt
	PoolSize int    // server connections per database (default_pool_size)
}

// renderPgBouncer writes pgbouncer.ini and userlist.txt for c. Clients are
// trusted by name (loopback only); the server is reached with the URL's
// user and password.
func renderPgBouncer(c poolerConfig) (ini, userlist string, err error) {
	u, err := url.Parse(c.Server)
	if err != nil || u.Host == "" {
		return "", "", fmt.Errorf("pgbouncer: server URL %q: %v", redact(c.Server), err)
	}
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = "5432"
	}
	db := strings.TrimPrefix(u.Path, "/")
	user := u.User.Username()
	if db == "" || user == "" {
		return "", "", fmt.Errorf("pgbouncer: server URL %s needs a database and a user", redact(c.Server))
	}
	lhost, lport, ok := strings.Cut(c.Listen, ":")
	if !ok {
		return "", "", fmt.Errorf("pgbouncer: listen %q: want host:port", c.Listen)
	}
	conn := fmt.Sprintf("host=%s port=%s dbname=%s user=%s", host, port, db, user)
	if pw, set := u.User.Password(); set {
		conn += " password=" + pgbouncerQuote(pw)
	}
	size := c.PoolSize
	if size <= 0 {
		size = 20
	}
	ini = fmt.Sprintf(`; Rendered by cmd/bench (make test-scale); deploy/scale/pgbouncer.ini is the same for a deployment.
[databases]
%s = %s

[pgbouncer]
listen_addr = %s
listen_port = %s
unix_socket_dir =
auth_type = trust
auth_file = %s/userlist.txt
; transaction pooling: a server connection per transaction, so LISTEN and
; session state do not work (workers run with JOBS_POLL_ONLY=true, pgx with
; default_query_exec_mode=cache_describe: PgBouncer before 1.21 keeps no
; prepared statements)
pool_mode = transaction
default_pool_size = %d
max_client_conn = 1000
server_reset_query =
ignore_startup_parameters = extra_float_digits
`, db, conn, lhost, lport, c.Dir, size)
	userlist = fmt.Sprintf("%q \"\"\n", user)
	return ini, userlist, nil
}

// pgbouncerQuote quotes a connection-string value with single quotes.
func pgbouncerQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// viaPgBouncer is the DATABASE_URL of a process behind the pooler: its
// address, the same database and user, pgx's cache_describe mode, and an
// application_name. cache_describe keeps no prepared statement on the
// server between round trips (it parses each query again, with the
// parameter types it described once per connection), so it works through
// any PgBouncer; `exec` does not know the types of parameters and cannot
// send Markwell's uuid arrays ("unable to encode []uuid.UUID").
func viaPgBouncer(server, listen, app string) (string, error) {
	u, err := url.Parse(server)
	if err != nil {
		return "", err
	}
	u.Host = listen
	q := u.Query()
	q.Set("default_query_exec_mode", "cache_describe")
	if app != "" {
		q.Set("application_name", app)
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// accessLine is one request in nginx's access log (nginxAccessFormat).
type accessLine struct {
	Upstreams []string // replicas tried, in order
	Statuses  []string // their answers ("502", "-")
	Status    int      // what the client got
	Method    string
	Path      string
}

var statusRe = regexp.MustCompile(`^\d{3}$`)

// parseAccessLine reads one line of the access log.
func parseAccessLine(line string) (accessLine, bool) {
	f := strings.Split(strings.TrimRight(line, "\r\n"), "\t")
	if len(f) < 5 || !statusRe.MatchString(f[2]) {
		return accessLine{}, false
	}
	var l accessLine
	split := func(s string) []string {
		if s == "-" || s == "" {
			return nil
		}
		// nginx separates the servers of one attempt group with ", " and
		// a change of upstream group with " : ".
		s = strings.ReplaceAll(s, " : ", ", ")
		return strings.Split(s, ", ")
	}
	l.Upstreams, l.Statuses = split(f[0]), split(f[1])
	fmt.Sscan(f[2], &l.Status)
	l.Method, l.Path = f[3], f[4]
	return l, true
}

// proxyTally is what the access log says about a run.
type proxyTally struct {
	Requests   int
	PerReplica map[string]int // answers per replica (the last one tried)
	Retried    int            // requests nginx sent to a second replica
	RetriedOK  int            // …which then answered below 500
	Failed     int            // requests the client got 5xx for
	FailedList []accessLine
}

// tallyAccessLog counts the requests of an access log.
func tallyAccessLog(text string) proxyTally {
	t := proxyTally{PerReplica: map[string]int{}}
	for _, line := range strings.Split(text, "\n") {
		l, ok := parseAccessLine(line)
		if !ok {
			continue
		}
		t.Requests++
		if n := len(l.Upstreams); n > 0 {
			t.PerReplica[l.Upstreams[n-1]]++
			if n > 1 {
				t.Retried++
				if l.Status < 500 {
					t.RetriedOK++
				}
			}
		}
		if l.Status >= 500 {
			t.Failed++
			t.FailedList = append(t.FailedList, l)
		}
	}
	return t
}
