package release

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"html/template"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"net/textproto"
	"strings"
	"time"
)

// Letter is what one result email says.
type Letter struct {
	StudentName, StudentEmail string
	AssignmentName            string
	TeacherName, TeacherEmail string
	Link                      string
}

var htmlBody = template.Must(template.New("email").Parse(`<!doctype html>
<html><body style="font-family: sans-serif; line-height: 1.5">
<p>Hello {{.StudentName}},</p>
<p>{{.Teacher}} has released your feedback on <strong>{{.AssignmentName}}</strong>.</p>
<p><a href="{{.Link}}">Open your feedback</a></p>
<p style="color: #555; font-size: 90%">This link is private to you: do not share it. If it stops working, ask your teacher.</p>
</body></html>
`))

// noControl strips line breaks and other control characters from a name
// that goes into a header or a sentence: names are data, never headers.
func noControl(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

// Message builds the email of l from from (SMTP_FROM, whose display name
// becomes the teacher's): multipart/alternative, plain text and HTML (names
// escaped), the teacher's address as Reply-To.
func (l Letter) Message(from mail.Address, now time.Time) ([]byte, error) {
	teacher := strings.TrimSpace(noControl(l.TeacherName))
	if teacher == "" {
		teacher = "Your teacher"
	}
	student := strings.TrimSpace(noControl(l.StudentName))
	assignment := strings.TrimSpace(noControl(l.AssignmentName))
	greeting := student
	if greeting == "" {
		greeting = "there"
	}

	var h bytes.Buffer
	header := func(k, v string) { fmt.Fprintf(&h, "%s: %s\r\n", k, v) }
	header("From", (&mail.Address{Name: teacher, Address: from.Address}).String())
	if _, err := mail.ParseAddress(l.TeacherEmail); err == nil {
		header("Reply-To", (&mail.Address{Name: teacher, Address: l.TeacherEmail}).String())
	}
	header("To", (&mail.Address{Name: student, Address: l.StudentEmail}).String())
	header("Subject", mime.QEncoding.Encode("utf-8", "Your feedback on "+assignment))
	header("Date", now.Format(time.RFC1123Z))
	header("Message-ID", "<"+messageID()+"@"+domainOf(from.Address)+">")
	header("MIME-Version", "1.0")
	header("Auto-Submitted", "auto-generated")

	var body bytes.Buffer
	mp := multipart.NewWriter(&body)
	header("Content-Type", `multipart/alternative; boundary="`+mp.Boundary()+`"`)
	h.WriteString("\r\n")

	text := fmt.Sprintf("Hello %s,\r\n\r\n%s has released your feedback on %s.\r\n\r\nOpen it here:\r\n%s\r\n\r\n"+
		"This link is private to you: do not share it. If it stops working, ask your teacher.\r\n",
		greeting, teacher, assignment, l.Link)
	var html bytes.Buffer
	if err := htmlBody.Execute(&html, map[string]string{
		"StudentName": greeting, "Teacher": teacher, "AssignmentName": assignment, "Link": l.Link,
	}); err != nil {
		return nil, err
	}
	for _, part := range []struct{ typ, body string }{
		{"text/plain; charset=utf-8", text}, {"text/html; charset=utf-8", html.String()},
	} {
		w, err := mp.CreatePart(textproto.MIMEHeader{
			"Content-Type": {part.typ}, "Content-Transfer-Encoding": {"quoted-printable"},
		})
		if err != nil {
			return nil, err
		}
		qp := quotedprintable.NewWriter(w)
		if _, err := qp.Write([]byte(part.body)); err != nil {
			return nil, err
		}
		if err := qp.Close(); err != nil {
			return nil, err
		}
	}
	if err := mp.Close(); err != nil {
		return nil, err
	}
	h.Write(body.Bytes())
	return h.Bytes(), nil
}

func messageID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func domainOf(addr string) string {
	if _, d, ok := strings.Cut(addr, "@"); ok && d != "" {
		return d
	}
	return "markwell.invalid"
}
