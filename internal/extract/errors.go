package extract

import (
	"errors"
	"fmt"
)

// ErrUnsupported means the format cannot be read; retrying will not help.
// Permanent errors about the file's type wrap it.
var ErrUnsupported = errors.New("unsupported file type")

// ErrTooLarge means the file exceeds what extraction accepts. Permanent
// errors about a size limit wrap it.
var ErrTooLarge = errors.New("file too large to extract")

// Reasons a teacher sees when a file cannot be read. Reasons that name a
// limit are built from Limits (see Limits.reason* helpers).
const (
	ReasonUnsupported    = "This file is not a PDF, Word, PowerPoint, text or image file"
	ReasonEmpty          = "This file is empty"
	ReasonPDFPassword    = "This PDF is password-protected"
	ReasonPDFDamaged     = "This PDF is damaged or incomplete and cannot be read"
	ReasonOfficePassword = "This Word or PowerPoint file is password-protected"
	ReasonDOCXDamaged    = "This Word file is damaged and cannot be read"
	ReasonPPTXDamaged    = "This PowerPoint file is damaged and cannot be read"
	ReasonZipBomb        = "This Word or PowerPoint file unpacks into far more than a real document holds, so it was not read"
	ReasonImageDamaged   = "This image is damaged and cannot be read"
)

// Reasons of images (HEIC photos, TIFF scans).
const (
	ReasonHEICDamaged     = "This HEIC photo could not be read: it may be damaged. Save it as JPEG or PNG and upload it again"
	ReasonHEICNoTool      = "HEIC photos cannot be read on this server: save the photo as JPEG or PNG and upload it again"
	ReasonTIFFUnsupported = "This TIFF image is stored in a way Markwell cannot read (such as JPEG compression inside the TIFF): save it as PDF, PNG or JPEG and upload it again"
)

// Reasons of files converted by LibreOffice (OpenDocument, RTF, Word and
// PowerPoint 97–2003), each ending with what the pupil can do.
const (
	saveAgain             = "Please save it as PDF or Word and upload it again."
	ReasonConvertSlow     = "This file took too long to convert. " + saveAgain
	ReasonConvertFailed   = "This file could not be converted: it may be damaged or password-protected. " + saveAgain
	ReasonConvertTooLarge = "This file grows too large when converted. " + saveAgain
	ReasonNoConverter     = "This server cannot read OpenDocument, RTF or old Word and PowerPoint files. " + saveAgain
)

// PermanentError is a failure that retrying cannot fix: the file itself is
// unreadable or refused. Reason is a plain sentence for the teacher; Err is
// the cause, for logs.
type PermanentError struct {
	Reason string
	Err    error
}

// Error implements error: the reason, then the cause.
func (e *PermanentError) Error() string {
	if e.Err == nil {
		return e.Reason
	}
	return e.Reason + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *PermanentError) Unwrap() error { return e.Err }

// permanent builds a PermanentError.
func permanent(reason string, cause error) error {
	return &PermanentError{Reason: reason, Err: cause}
}

// permanentf builds a PermanentError whose cause is a formatted error.
func permanentf(reason string, format string, args ...any) error {
	return &PermanentError{Reason: reason, Err: fmt.Errorf(format, args...)}
}

// IsPermanent reports whether err (or an error it wraps) is a
// PermanentError: the job should fail at once instead of retrying.
func IsPermanent(err error) bool {
	var pe *PermanentError
	return errors.As(err, &pe)
}

// Reason returns the teacher-facing reason of a permanent error and true, or
// "" and false for any other error (I/O, timeouts, a missing tool), which is
// worth retrying.
func Reason(err error) (string, bool) {
	var pe *PermanentError
	if errors.As(err, &pe) {
		return pe.Reason, true
	}
	return "", false
}
