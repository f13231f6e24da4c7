package release_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/mail"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/markwell/markwell/internal/release"
)

// testCert writes a self-signed certificate for 127.0.0.1 and its key, and
// returns their paths and a pool that trusts it.
func testCert(t *testing.T) (certFile, keyFile string, roots *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, IsCA: true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	cert, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	roots = x509.NewCertPool()
	roots.AddCert(cert)
	keyDER, err := x509.MarshalECPrivateKey(key)
	require.NoError(t, err)
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	require.NoError(t, os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600))
	require.NoError(t, os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600))
	return certFile, keyFile, roots
}

// smtp:// requires STARTTLS: against a server that offers it, the message
// goes over TLS with the password; a certificate it does not trust, or a
// server without STARTTLS, sends nothing.
func TestSMTPRequiresSTARTTLS(t *testing.T) {
	t.Parallel()
	certFile, keyFile, roots := testCert(t)
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	require.NoError(t, err)
	mp := startSMTP(t, serverOptions{TLS: "starttls", Cert: cert})
	msg, err := release.Letter{StudentName: "Ada", StudentEmail: "ada@pupils.test", AssignmentName: "Essay",
		TeacherName: "Ms Lee", TeacherEmail: "lee@school.test", Link: "https://markwell.test/results/x"}.
		Message(mail.Address{Address: "no-reply@school.test"}, time.Now())
	require.NoError(t, err)
	env := release.Envelope{From: "no-reply@school.test", To: "ada@pupils.test"}

	s, err := release.ParseSMTP("smtp://user:secret@"+mp.Addr, "no-reply@school.test")
	require.NoError(t, err)
	require.Error(t, s.Send(context.Background(), env, msg), "the test certificate is not trusted by the system")
	s.RootCAs = roots
	require.NoError(t, s.Send(context.Background(), env, msg))
	require.Len(t, mp.messages(t), 1)

	// smtps:// is TLS from the first byte.
	implicit := startSMTP(t, serverOptions{TLS: "implicit", Cert: cert})
	s, err = release.ParseSMTP("smtps://user:secret@"+implicit.Addr, "no-reply@school.test")
	require.NoError(t, err)
	s.RootCAs = roots
	require.NoError(t, s.Send(context.Background(), env, msg))
	require.Len(t, implicit.messages(t), 1)

	plain := startSMTP(t, serverOptions{})
	s, err = release.ParseSMTP("smtp://"+plain.Addr, "no-reply@school.test")
	require.NoError(t, err)
	err = s.Send(context.Background(), env, msg)
	require.ErrorContains(t, err, "does not offer STARTTLS")
	require.Empty(t, plain.messages(t), "nothing is sent in clear")
}
