package release

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/smtp"
	"net/textproto"
	"net/url"
	"strings"
	"time"
)

// SMTP is the mail server results are sent through (SMTP_URL) and the
// address they are sent from (SMTP_FROM). It speaks net/smtp of the
// standard library: the few things Markwell needs (STARTTLS required or
// implicit TLS, PLAIN auth, the server's reply codes at RCPT and DATA to
// tell a bounce from a failure to retry) are all there, and the message
// itself is built here (message.go), so no dependency is added.
type SMTP struct {
	// Host is host:port.
	Host string
	// TLS: "starttls" (smtp://, STARTTLS required), "implicit" (smtps://),
	// "none" (smtp://…?tls=none, only for a local test server).
	TLS      string
	User     string
	Password string
	// From is SMTP_FROM's address; its display name is replaced by the
	// teacher's on each message.
	From mail.Address
	// Timeout bounds one message's conversation (30 s when zero).
	Timeout time.Duration
	// RootCAs, when set, replaces the system's roots (tests).
	RootCAs *x509.CertPool
}

// ParseSMTP reads SMTP_URL and SMTP_FROM; both empty is no email (nil).
// smtp://user:pass@host:587 requires STARTTLS, smtps://user:pass@host:465
// is implicit TLS, ?tls=none (smtp:// only) sends in clear for a local test
// server. Anything else is refused with a sentence saying what to write.
func ParseSMTP(rawURL, from string) (*SMTP, error) {
	if rawURL == "" && from == "" {
		return nil, nil
	}
	if rawURL == "" {
		return nil, errors.New("SMTP_URL: required when SMTP_FROM is set (e.g. smtp://user:password@mail.example.org:587)")
	}
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" || u.Hostname() == "" || (u.Path != "" && u.Path != "/") || u.Opaque != "" {
		return nil, errors.New("SMTP_URL: must look like smtp://user:password@host:587 (STARTTLS) or smtps://user:password@host:465 (TLS)")
	}
	s := &SMTP{}
	q := u.Query()
	for k := range q {
		if k != "tls" {
			return nil, fmt.Errorf("SMTP_URL: unknown setting %q (the only one is tls=none, for a local test server)", k)
		}
	}
	port := u.Port()
	switch u.Scheme {
	case "smtp":
		s.TLS = "starttls"
		if port == "" {
			port = "587"
		}
		switch q.Get("tls") {
		case "":
		case "none":
			s.TLS = "none"
		default:
			return nil, fmt.Errorf("SMTP_URL: tls=%q is not known (smtp:// always uses STARTTLS; tls=none only for a local test server)", q.Get("tls"))
		}
	case "smtps":
		s.TLS = "implicit"
		if port == "" {
			port = "465"
		}
		if q.Has("tls") {
			return nil, errors.New("SMTP_URL: smtps:// is always TLS; tls=none goes with smtp:// only, for a local test server")
		}
	default:
		return nil, fmt.Errorf("SMTP_URL: scheme %q is not smtp:// (STARTTLS, port 587) or smtps:// (TLS, port 465)", u.Scheme)
	}
	s.Host = net.JoinHostPort(u.Hostname(), port)
	if u.User != nil {
		s.User = u.User.Username()
		s.Password, _ = u.User.Password()
	}
	if s.TLS == "none" && s.User != "" && !isLocal(u.Hostname()) {
		return nil, errors.New("SMTP_URL: tls=none would send the password in clear; it is only for a local test server (localhost)")
	}
	if from == "" {
		return nil, errors.New(`SMTP_FROM: required with SMTP_URL, e.g. "Markwell <no-reply@school.example>"`)
	}
	addr, err := mail.ParseAddress(from)
	if err != nil {
		return nil, fmt.Errorf(`SMTP_FROM: %q is not an address such as "Markwell <no-reply@school.example>"`, from)
	}
	s.From = *addr
	return s, nil
}

func isLocal(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Rejected is a mail server's permanent refusal (a 5xx reply at MAIL, RCPT
// or DATA): the message bounced, and sending it again would not help.
type Rejected struct {
	Reply string
}

func (e *Rejected) Error() string { return "rejected: " + e.Reply }

// Envelope is one message's sender and recipient.
type Envelope struct {
	From, To string
}

// Send delivers msg (a whole RFC 5322 message) to one recipient. A 5xx
// reply at MAIL, RCPT or DATA is *Rejected; any other error (a 4xx, the
// connection, TLS) is worth retrying.
func (s *SMTP) Send(ctx context.Context, env Envelope, msg []byte) error {
	timeout := s.Timeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	host, _, _ := net.SplitHostPort(s.Host)
	tlsConfig := &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
	if s.RootCAs != nil {
		tlsConfig.RootCAs = s.RootCAs
	}
	var conn net.Conn
	var err error
	if s.TLS == "implicit" {
		conn, err = (&tls.Dialer{Config: tlsConfig}).DialContext(ctx, "tcp", s.Host)
	} else {
		conn, err = (&net.Dialer{}).DialContext(ctx, "tcp", s.Host)
	}
	if err != nil {
		return fmt.Errorf("connect to %s: %w", s.Host, err)
	}
	deadline, _ := ctx.Deadline()
	_ = conn.SetDeadline(deadline)
	c, err := smtp.NewClient(conn, host)
	if err != nil {
		_ = conn.Close()
		return fmt.Errorf("greeting of %s: %w", s.Host, err)
	}
	defer func() { _ = c.Close() }()
	if s.TLS == "starttls" {
		if ok, _ := c.Extension("STARTTLS"); !ok {
			return fmt.Errorf("%s does not offer STARTTLS, which smtp:// requires (use smtps:// for TLS on connect)", s.Host)
		}
		if err := c.StartTLS(tlsConfig); err != nil {
			return fmt.Errorf("STARTTLS with %s: %w", s.Host, err)
		}
	}
	if s.User != "" {
		if err := c.Auth(smtp.PlainAuth("", s.User, s.Password, host)); err != nil {
			return fmt.Errorf("sign in to %s: %w", s.Host, err)
		}
	}
	if err := c.Mail(env.From); err != nil {
		return classify("MAIL FROM", err)
	}
	if err := c.Rcpt(env.To); err != nil {
		return classify("RCPT TO", err)
	}
	w, err := c.Data()
	if err != nil {
		return classify("DATA", err)
	}
	if _, err := w.Write(msg); err != nil {
		return fmt.Errorf("write message: %w", err)
	}
	if err := w.Close(); err != nil {
		return classify("DATA", err)
	}
	_ = c.Quit()
	return nil
}

// classify makes a 5xx reply a *Rejected and leaves anything else to retry.
func classify(step string, err error) error {
	var reply *textproto.Error
	if errors.As(err, &reply) && reply.Code >= 500 && reply.Code < 600 {
		return &Rejected{Reply: fmt.Sprintf("%d %s", reply.Code, strings.TrimSpace(reply.Msg))}
	}
	return fmt.Errorf("%s: %w", step, err)
}
