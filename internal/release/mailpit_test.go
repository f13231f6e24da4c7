package release_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// mailpit is a real SMTP server for the tests: github.com/axllent/mailpit,
// a tool dependency of the module (go.mod's tool line, pinned at v1.33.1),
// built once per test binary and run per test on free ports. Its HTTP API
// (/api/v1/messages) shows what it received.
type mailpit struct {
	SMTP string // host:port
	API  string // http://host:port
}

var (
	mailpitOnce sync.Once
	mailpitBin  string
	mailpitErr  error
)

// startMailpit runs mailpit with extra flags until the test ends.
func startMailpit(t *testing.T, flags ...string) mailpit {
	t.Helper()
	mailpitOnce.Do(func() {
		dir, err := os.MkdirTemp("", "markwell-mailpit-")
		if err != nil {
			mailpitErr = err
			return
		}
		mailpitBin = filepath.Join(dir, "mailpit")
		out, err := exec.Command("go", "build", "-o", mailpitBin, "github.com/axllent/mailpit").CombinedOutput()
		if err != nil {
			mailpitErr = fmt.Errorf("build mailpit: %v\n%s", err, out)
		}
	})
	require.NoError(t, mailpitErr)
	smtpAddr, httpAddr := freeAddr(t), freeAddr(t)
	args := []string{"--smtp", smtpAddr, "--listen", httpAddr, "--database", filepath.Join(t.TempDir(), "mail.db"),
		"--smtp-auth-accept-any", "--smtp-disable-rdns", "--quiet"}
	if !slices.Contains(flags, "--smtp-require-starttls") && !slices.Contains(flags, "--smtp-require-tls") {
		args = append(args, "--smtp-auth-allow-insecure") // a password over a test server's clear connection
	}
	args = append(args, flags...)
	cmd := exec.Command(mailpitBin, args...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	m := mailpit{SMTP: smtpAddr, API: "http://" + httpAddr}
	require.Eventually(t, func() bool {
		res, err := http.Get(m.API + "/api/v1/messages")
		if err != nil {
			return false
		}
		_ = res.Body.Close()
		c, err := net.Dial("tcp", smtpAddr)
		if err != nil {
			return false
		}
		_ = c.Close()
		return res.StatusCode == 200
	}, 20*time.Second, 50*time.Millisecond, "mailpit did not start")
	return m
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer func() { _ = l.Close() }()
	return "127.0.0.1:" + strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// mailAddr is an address as mailpit's API shows it.
type mailAddr struct {
	Name    string `json:"Name"`
	Address string `json:"Address"`
}

// delivered is one message mailpit holds, with its bodies.
type delivered struct {
	ID      string     `json:"ID"`
	From    mailAddr   `json:"From"`
	To      []mailAddr `json:"To"`
	ReplyTo []mailAddr `json:"ReplyTo"`
	Subject string     `json:"Subject"`
	Text    string     `json:"Text"`
	HTML    string     `json:"HTML"`
}

// messages lists what mailpit received, each read in full.
func (m mailpit) messages(t *testing.T) []delivered {
	t.Helper()
	var list struct {
		Messages []delivered `json:"messages"`
	}
	getJSON(t, m.API+"/api/v1/messages", &list)
	out := make([]delivered, len(list.Messages))
	for i, msg := range list.Messages {
		getJSON(t, m.API+"/api/v1/message/"+msg.ID, &out[i])
	}
	return out
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	require.NoError(t, err)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer func() { _ = res.Body.Close() }()
	require.Equal(t, 200, res.StatusCode, url)
	require.NoError(t, json.NewDecoder(res.Body).Decode(v))
}
