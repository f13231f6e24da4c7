package report

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/markwell/markwell/internal/apperr"
	"github.com/markwell/markwell/internal/identity"
	"github.com/markwell/markwell/internal/office"
	"github.com/markwell/markwell/internal/queue"
	"github.com/markwell/markwell/internal/store"
)

// BatchSize is how many reports one LibreOffice run converts: starting
// LibreOffice costs a few seconds, a short report a fraction of one, and a
// batch this size keeps the process's memory modest.
const BatchSize = 25

// PerFileTimeout is what a batch's timeout grows by per report.
const PerFileTimeout = 15 * time.Second

// ErrGone is a run that is no longer queued or running (finished, failed,
// or deleted with its assignment): the job has nothing to do.
var ErrGone = errors.New("report: the run is no longer in progress")

// Build builds the run reportID of team: every report converted in batches
// (progress stored after each), then the ZIP and the combined PDF stored,
// and only then the run marked done, with the previous run's files queued
// for deletion. Each call builds the whole run again, so a retry after a
// crash finishes it. tmp is a folder for the files ("" is os.TempDir).
func (s *Service) Build(ctx context.Context, teamID, reportID uuid.UUID, tmp string) error {
	row, err := store.Q.StartReportRun(ctx, s.Pool, store.StartReportRunParams{ID: reportID, TeamID: teamID})
	if errors.Is(err, pgx.ErrNoRows) {
		return ErrGone
	}
	if err != nil {
		return fmt.Errorf("start report %s: %w", reportID, err)
	}
	a := identity.Actor{TeamID: teamID}
	items, err := s.Load(ctx, a, row.AssignmentID, row.SubmissionIds)
	if err != nil {
		return err
	}
	if len(items) == 0 {
		return apperr.New(apperr.Invalid, msgNoSubmissions)
	}
	total := int32(len(items))
	progress := func(done int) {
		_ = store.Q.SetReportProgress(ctx, s.Pool, store.SetReportProgressParams{
			Done: int32(done), Total: total, ID: reportID, TeamID: teamID})
	}
	progress(0)

	dir, err := os.MkdirTemp(tmp, "reports-")
	if err != nil {
		return fmt.Errorf("temporary folder for reports: %w", err)
	}
	defer os.RemoveAll(dir)
	paths := make([]string, len(items))
	for start := 0; start < len(items); start += BatchSize {
		batch := items[start:min(start+BatchSize, len(items))]
		pdfs, err := s.convertBatch(ctx, batch)
		if err != nil {
			return err
		}
		for i, pdf := range pdfs {
			paths[start+i] = filepath.Join(dir, fmt.Sprintf("r%05d.pdf", start+i))
			if err := os.WriteFile(paths[start+i], pdf, 0o600); err != nil {
				return fmt.Errorf("write report: %w", err)
			}
		}
		progress(start + len(batch))
	}

	combined := filepath.Join(dir, "all.pdf")
	if err := unite(ctx, paths, combined); err != nil {
		return err
	}
	zipPath := filepath.Join(dir, "all.zip")
	if err := zipFiles(zipPath, items, paths); err != nil {
		return err
	}
	folder := "assignments/" + row.AssignmentID.String() + "/reports/" + reportID.String() + "/"
	zipKey, pdfKey := folder+"reports.zip", folder+"reports.pdf"
	if err := s.putFile(ctx, zipKey, zipPath, "application/zip"); err != nil {
		return err
	}
	if err := s.putFile(ctx, pdfKey, combined, "application/pdf"); err != nil {
		return err
	}
	return store.InTx(ctx, s.Pool, func(tx pgx.Tx) error {
		n, err := store.Q.FinishReport(ctx, tx, store.FinishReportParams{ZipKey: zipKey, PdfKey: pdfKey, ID: reportID, TeamID: teamID})
		if err != nil {
			return fmt.Errorf("finish report %s: %w", reportID, err)
		}
		if n == 0 {
			return ErrGone
		}
		old, err := store.Q.OldReportKeys(ctx, tx, store.OldReportKeysParams{AssignmentID: row.AssignmentID, TeamID: teamID, KeepID: reportID})
		if err != nil || len(old) == 0 {
			return err
		}
		ids := make([]uuid.UUID, len(old))
		prefixes := make([]string, len(old))
		for i, o := range old {
			ids[i] = o.ID
			prefixes[i] = "assignments/" + row.AssignmentID.String() + "/reports/" + o.ID.String() + "/"
		}
		if err := store.Q.ForgetReportKeys(ctx, tx, store.ForgetReportKeysParams{TeamID: teamID, Ids: ids}); err != nil {
			return err
		}
		_, err = s.Jobs.InsertTx(ctx, tx, queue.DeleteBlobsArgs{Prefixes: prefixes}, nil)
		return err
	})
}

// Fail marks the run failed with a sentence for the teacher.
func (s *Service) Fail(ctx context.Context, teamID, reportID uuid.UUID, cause error) error {
	msg := "The reports could not be made. Please try again."
	var ae *apperr.Error
	switch {
	case errors.As(cause, &ae) && ae.Message != "":
		msg = ae.Message // the sentences of convertError, convertBatch and unite
	case errors.Is(cause, office.ErrNotInstalled):
		msg = MsgNoOffice
	}
	return store.Q.FailReport(ctx, s.Pool, store.FailReportParams{Error: msg, ID: reportID, TeamID: teamID})
}

// convertBatch converts a batch in one LibreOffice run; a report the batch
// could not convert is tried once more alone, and fails the run, naming
// its student, if it fails again.
func (s *Service) convertBatch(ctx context.Context, batch []Item) ([][]byte, error) {
	files := make([]office.BatchFile, len(batch))
	for i, it := range batch {
		files[i] = office.BatchFile{Data: FODT(it.Report), Ext: "fodt"}
	}
	pdfs, errs, err := s.office().ConvertMany(ctx, files, office.ToPDF, PerFileTimeout)
	if err != nil {
		return nil, convertError(err)
	}
	for i := range pdfs {
		if errs[i] == nil {
			continue
		}
		if pdfs[i], err = s.office().Convert(ctx, files[i].Data, "fodt", office.ToPDF); err != nil {
			return nil, apperr.Wrap(apperr.Internal,
				fmt.Sprintf("The report of %s could not be turned into a PDF.", batch[i].Report.Student), err)
		}
	}
	return pdfs, nil
}

// unite joins the PDFs into one with pdfunite (poppler-utils).
func unite(ctx context.Context, paths []string, out string) error {
	if len(paths) == 1 {
		data, err := os.ReadFile(paths[0])
		if err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o600)
	}
	tool, err := exec.LookPath("pdfunite")
	if err != nil {
		return apperr.Wrap(apperr.Internal, "Reports cannot be combined on this server: poppler-utils (pdfunite) is not installed. Ask your administrator.", err)
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, tool, append(append([]string{}, paths...), out)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("pdfunite: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// zipFiles writes the reports into a ZIP under their file names.
func zipFiles(out string, items []Item, paths []string) error {
	f, err := os.OpenFile(out, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(f)
	for i, it := range items {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: it.FileName, Method: zip.Deflate, Modified: time.Now()})
		if err != nil {
			f.Close()
			return err
		}
		data, err := os.ReadFile(paths[i])
		if err != nil {
			f.Close()
			return err
		}
		if _, err := w.Write(data); err != nil {
			f.Close()
			return err
		}
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// putFile stores a file.
func (s *Service) putFile(ctx context.Context, key, path, contentType string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if err := s.Blob.Put(ctx, key, f, st.Size(), contentType); err != nil {
		return fmt.Errorf("store %s: %w", key, err)
	}
	return nil
}
