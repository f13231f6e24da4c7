package release_test

import (
	"crypto/tls"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/mail"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"github.com/stretchr/testify/require"
)

// smtpServer is a real SMTP server for the tests (github.com/emersion/go-smtp,
// in the test process, on a free loopback port): it speaks the protocol the
// way a school's relay does — STARTTLS offered or required, implicit TLS,
// PLAIN auth, recipients refused at RCPT with a 5xx — and keeps what it was
// sent, parsed as a mail client would show it. It replaced mailpit, whose
// build (273 packages, SQLite among them) cost make test over a minute on a
// fresh machine.
type smtpServer struct {
	Addr string // host:port

	opts serverOptions
	mu   sync.Mutex
	got  [][]byte
}

type serverOptions struct {
	// TLS is "" (plain, no STARTTLS offered), "starttls" (offered and
	// required before MAIL) or "implicit" (TLS from the first byte).
	TLS     string
	Cert    tls.Certificate
	AllowTo *regexp.Regexp // recipients not matching are refused, 550
}

func startSMTP(t *testing.T, o serverOptions) *smtpServer {
	t.Helper()
	s := &smtpServer{opts: o}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &smtpSession{server: s, conn: c}, nil
	}))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	if o.TLS != "" {
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{o.Cert}, MinVersion: tls.VersionTLS12}
	}
	if o.TLS == "implicit" {
		l = tls.NewListener(l, srv.TLSConfig)
	}
	s.Addr = l.Addr().String()
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return s
}

type smtpSession struct {
	server *smtpServer
	conn   *smtp.Conn
}

func (s *smtpSession) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *smtpSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, _ string) error {
		if user == "" {
			return errors.New("no user")
		}
		return nil
	}), nil
}

func (s *smtpSession) Mail(string, *smtp.MailOptions) error {
	if _, isTLS := s.conn.TLSConnectionState(); s.server.opts.TLS != "" && !isTLS {
		return &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "Must issue a STARTTLS command first"}
	}
	return nil
}

func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if re := s.server.opts.AllowTo; re != nil && !re.MatchString(to) {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "Recipient " + to + " is not allowed here"}
	}
	return nil
}

func (s *smtpSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.server.mu.Lock()
	defer s.server.mu.Unlock()
	s.server.got = append(s.server.got, b)
	return nil
}

func (s *smtpSession) Reset()        {}
func (s *smtpSession) Logout() error { return nil }

// delivered is one message the server received, as a mail client shows it:
// the addresses and subject decoded, the plain-text and HTML parts decoded.
type delivered struct {
	From    *mail.Address
	To      []*mail.Address
	ReplyTo []*mail.Address
	Subject string
	Text    string
	HTML    string
}

// messages parses what the server received.
func (s *smtpServer) messages(t *testing.T) []delivered {
	t.Helper()
	s.mu.Lock()
	raw := append([][]byte(nil), s.got...)
	s.mu.Unlock()
	out := make([]delivered, 0, len(raw))
	for _, b := range raw {
		m, err := mail.ReadMessage(strings.NewReader(string(b)))
		require.NoError(t, err)
		var d delivered
		d.From, err = mail.ParseAddress(m.Header.Get("From"))
		require.NoError(t, err)
		d.To, err = m.Header.AddressList("To")
		require.NoError(t, err)
		if m.Header.Get("Reply-To") != "" {
			d.ReplyTo, err = m.Header.AddressList("Reply-To")
			require.NoError(t, err)
		}
		d.Subject, err = new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
		require.NoError(t, err)
		typ, params, err := mime.ParseMediaType(m.Header.Get("Content-Type"))
		require.NoError(t, err)
		require.Equal(t, "multipart/alternative", typ)
		parts := multipart.NewReader(m.Body, params["boundary"])
		for {
			p, err := parts.NextPart() // decodes quoted-printable
			if err == io.EOF {
				break
			}
			require.NoError(t, err)
			body, err := io.ReadAll(p)
			require.NoError(t, err)
			switch ct, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type")); ct {
			case "text/plain":
				d.Text = string(body)
			case "text/html":
				d.HTML = string(body)
			}
		}
		out = append(out, d)
	}
	return out
}

// freeAddr is a loopback address nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer func() { _ = l.Close() }()
	return l.Addr().String()
}
