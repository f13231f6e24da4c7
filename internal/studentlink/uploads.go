package studentlink

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/store"
	"github.com/markwell/markwell/internal/submission"
)

// MsgOldLink answers a submission of a file uploaded through the link before
// it was rotated or turned off.
const MsgOldLink = "This file was uploaded through an old link. Please upload it again."

// checkLinkUpload is what Submit asks of a student's submission sub of asg
// (its file's key known, the link resolved through limited) beyond the
// file's checks: the student is within their own limit on this link
// (Limits.PerStudent), and the file was uploaded through the link's current
// generation. A link's generation goes up each time it is rotated or turned
// off (a trigger on assignments, migrations/00009_link_uploads.sql), so an
// upload signed by an earlier link is refused with MsgOldLink.
func (s *Service) checkLinkUpload(ctx context.Context, asg store.Assignment, sub submission.NewSubmission) error {
	l := s.Limits
	student := "student:submit:link:" + asg.ID.String() + ":student:" + studentOf(sub)
	if err := l.Limiter.Allow(ctx, l.PerStudent, student, MsgTooMany); err != nil {
		return err
	}
	gen, err := store.Q.LinkUploadGeneration(ctx, s.Pool, store.LinkUploadGenerationParams{Key: sub.Key, AssignmentID: asg.ID})
	if errors.Is(err, pgx.ErrNoRows) {
		// Every upload the link signs is recorded with its generation; one
		// without a record is not the link's (or was cleaned up).
		return apperr.New(apperr.Invalid, MsgOldLink)
	}
	if err != nil {
		return fmt.Errorf("link generation of upload %s: %w", sub.Key, err)
	}
	if gen != asg.StudentLinkGeneration {
		return apperr.New(apperr.Invalid, MsgOldLink)
	}
	return nil
}

// studentOf names the student of a submission for their limit: their email
// (already lower case), or their name in lower case without one.
func studentOf(sub submission.NewSubmission) string {
	if sub.StudentEmail != "" {
		return sub.StudentEmail
	}
	return "name:" + strings.ToLower(strings.Join(strings.Fields(sub.StudentName), " "))
}

// submitterOf is the client address a student's calls are counted under:
// an IPv4 address as it is, an IPv6 address by its /64 network (one home or
// school gets a whole /64, and could otherwise count as billions of
// submitters). Anything unparsable is taken as it is.
func submitterOf(addr string) string {
	ip, err := netip.ParseAddr(strings.TrimSpace(addr))
	if err != nil {
		return addr
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is4() {
		return ip.String()
	}
	return netip.PrefixFrom(ip, 64).Masked().String()
}
