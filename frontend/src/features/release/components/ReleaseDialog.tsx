import DownloadRounded from '@mui/icons-material/DownloadRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { useEffect, useId, useState } from 'react';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { useAppConfig } from '../../../lib/app-config';
import { downloadLinksCsv, useClassReleases, useGradedIds, useRelease } from '../api/releases';
import type { ReleaseOutcome } from '../api/types';

/** Props of {@link ReleaseDialog}. */
export interface ReleaseDialogProps {
  open: boolean;
  onClose: () => void;
  assignmentId: string;
  /** The selected rows; none releases every reviewed result. */
  selectedIds: string[];
  /** How many results are reviewed (what "Release all reviewed" releases). */
  reviewedCount: number;
  /**
   * The whole class's submissions whose result was graded before a question or criterion was added
   * to the assignment (submission-rows' questionsAddedIds; a result graded before a question was
   * only reworded or its points changed is not one): the ones this release takes are warned about.
   */
  questionsAddedIds?: string[];
  /** How many of those are reviewed (submission-rows' questionsAddedReviewed): "Release all reviewed" takes them. */
  questionsAddedReviewed?: number;
  /** Called after a release, e.g. to clear the selection. */
  onReleased?: () => void;
}

function results(n: number): string {
  return `${n} ${n === 1 ? 'result' : 'results'}`;
}

/**
 * What the dialog will release, counted in results (rows), never in students: a student who
 * submitted twice has two results, each with its own link. Said before anything happens, so in the
 * future: "The 8 selected results will be released: each student will get a private link to their
 * result page." `count` is what "Release all reviewed" takes: the reviewed results not released yet.
 */
function releaseSentence(selected: number, count: number): string {
  const what =
    selected === 1
      ? 'The selected result'
      : selected > 1
        ? `The ${selected} selected results`
        : count === 1
          ? 'The reviewed result'
          : count > 1
            ? `The ${count} reviewed results`
            : 'Every reviewed result';
  const who = selected === 1 || (selected === 0 && count === 1) ? 'its student will get' : 'each student will get';
  return `${what} will be released: ${who} a private link to their result page.`;
}

/**
 * What a release of the selected rows will do, once the dialog knows which of them are graded or
 * reviewed (`releasable` of `selected`): the server skips the others as not graded yet, so the
 * dialog says so first. "1 of the 2 selected results will be released: its student will get a
 * private link to their result page. 1 is not graded yet and is skipped: only graded or reviewed
 * results can be released." When every one is releasable, the usual sentence.
 */
function selectedSentence(selected: number, releasable: number): string {
  const skipped = selected - releasable;
  if (skipped <= 0) return `${releaseSentence(selected, 0)} Only graded or reviewed results can be released.`;
  const who = releasable === 1 ? 'its student will get' : 'each student will get';
  const left = skipped === 1 ? '1 is not graded yet and is skipped' : `${skipped} are not graded yet and are skipped`;
  return (
    `${releasable} of the ${selected} selected results will be released: ${who} a private link to their result page. ` +
    `${left}: only graded or reviewed results can be released.`
  );
}

/** Why none of the selected rows can be released, beside the disabled button. */
function nothingSelectedSentence(selected: number): string {
  return selected === 1
    ? 'Nothing to release: the selected result is not graded yet, and only graded or reviewed results can be released. Grade it first, or select other rows.'
    : `Nothing to release: the ${selected} selected results are not graded yet, and only graded or reviewed results can be released. Grade them first, or select other rows.`;
}

/** The reviewed results released already, which "Release all reviewed" leaves as they are. */
function alreadyReleasedSentence(already: number, left: number): string {
  if (left === 0) {
    return already === 1
      ? 'Already released: the reviewed result is released, and its student has their link. There is nothing more to release; select rows in the table to release other results.'
      : `Already released: all ${already} reviewed results are released, and their students have their links. There is nothing more to release; select rows in the table to release other results.`;
  }
  return already === 1
    ? '1 other reviewed result is already released: it keeps its link and is not counted or emailed again.'
    : `${already} other reviewed results are already released: they keep their links and are not counted or emailed again.`;
}

/**
 * The warning about results graded before questions were added to the assignment: their students
 * would see the questions added since as not met, never marked. "1 of these results was graded
 * before questions were added to the assignment: …", then how to mark them: “Grade changed
 * questions again” for those not reviewed (it leaves reviewed results as they are); a reviewed one
 * only by grading it again whole, which replaces the teacher's review.
 */
function questionsAddedSentence(added: number, reviewed: number): string {
  const one = added === 1;
  const it = one ? 'it' : 'them';
  const warning =
    `${added} of these results ${one ? 'was' : 'were'} graded before questions were added to the assignment: ` +
    `${one ? 'its student' : 'their students'} will see the questions added since as not met.`;
  const regrade = (n: number) => `select ${n === 1 ? 'it' : 'them'}, press “Grade selected” and choose “Grade ${n === 1 ? 'it' : 'them'} again too” (this replaces your ticks and comments)`;
  if (reviewed <= 0) return `${warning} Grade ${it} again first with “Grade changed questions again”, or release anyway.`;
  if (reviewed >= added) {
    return `${warning} You reviewed ${it}, and “Grade changed questions again” leaves reviewed results as they are: to mark the new questions, ${regrade(added)}, or release anyway.`;
  }
  return (
    `${warning} “Grade changed questions again” grades the ${added - reviewed} you have not reviewed; it leaves the ${reviewed === 1 ? 'one' : reviewed} you reviewed as ` +
    `${reviewed === 1 ? 'it is' : 'they are'}: to mark the new questions there, ${regrade(reviewed)}. Or release anyway.`
  );
}

/** The rows a release left out, by reason: "6 skipped: not reviewed yet; 1 skipped: not graded yet." */
function skippedSentence(out: ReleaseOutcome): string {
  const parts: string[] = [];
  if (out.skippedNotReviewed > 0) parts.push(`${out.skippedNotReviewed} skipped: not reviewed yet`);
  if (out.skippedNotGraded > 0) parts.push(`${out.skippedNotGraded} skipped: not graded yet`);
  // A server that does not split the count by reason.
  const unexplained = out.skipped - out.skippedNotReviewed - out.skippedNotGraded;
  if (unexplained > 0) parts.push(`${unexplained} skipped: not graded or reviewed yet`);
  return parts.length > 0 ? ` ${parts.join('; ')}.` : '';
}

/**
 * Releases results to their students: the selected rows, or every reviewed result. Each student
 * gets a private link to their result page; with email set up on the server the link can be
 * emailed to each student whose address is known. Without email the teacher copies the links or
 * downloads them as a CSV.
 */
export function ReleaseDialog({
  open,
  onClose,
  assignmentId,
  selectedIds,
  reviewedCount,
  questionsAddedIds = [],
  questionsAddedReviewed = 0,
  onReleased,
}: ReleaseDialogProps) {
  const titleId = useId();
  const { showToast } = useToast();
  const config = useAppConfig();
  const emailEnabled = config.data?.emailEnabled === true;
  const [sendEmail, setSendEmail] = useState(true);
  const [downloading, setDownloading] = useState(false);
  const release = useRelease();
  const fullScreen = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const selected = selectedIds.length;
  // The whole class as it stands now: which reviewed results are released already, and whether any
  // link is live. Until it has arrived (or when it cannot be read) the table's count stands.
  const classReleases = useClassReleases(assignmentId, open);
  // With rows selected, which of them are graded (or reviewed): only those are released.
  const graded = useGradedIds(assignmentId, open && selected > 0);
  const busy = (q: { isPending: boolean; isFetching: boolean }) => q.isPending || q.isFetching;
  // "Release all reviewed" waits for the class (asked again at each opening): pressed before, it
  // would release (and email) again what is released already, and its count could be wrong. A
  // selection waits for its graded and reviewed results: its count would include rows the server
  // skips. If they cannot be read, the table's count stands and the server says what it skipped.
  const counting =
    selected === 0
      ? reviewedCount > 0 && !classReleases.isError && busy(classReleases)
      : !classReleases.isError && !graded.isError && (busy(classReleases) || busy(graded));
  const known = classReleases.isFetching ? undefined : classReleases.data;
  // The selected rows the release takes: the graded or reviewed ones (null while not known).
  const finished = selected > 0 && known && graded.data && !graded.isFetching ? new Set([...known.reviewedIds, ...graded.data]) : null;
  const releasable = finished ? selectedIds.filter((id) => finished.has(id)).length : selected;
  const live = new Set(known?.releasedIds);
  // What "Release all reviewed" takes: the reviewed results not released yet.
  const toRelease = known ? known.reviewedIds.filter((id) => !live.has(id)) : null;
  const alreadyReleased = known ? known.reviewedIds.length - (toRelease?.length ?? 0) : 0;
  const allCount = toRelease ? toRelease.length : reviewedCount;
  const label =
    selected > 0
      ? counting
        ? 'Release selected'
        : releasable < selected
          ? `Release ${releasable} of ${selected} selected`
          : `Release ${selected} selected`
      : counting
        ? 'Release all reviewed'
        : `Release all reviewed (${allCount})`;
  const nothing = selected === 0 ? allCount === 0 : releasable === 0;
  const noneReviewed = selected === 0 && nothing && alreadyReleased === 0;
  const nothingSelectedId = useId();
  // The links CSV lists live links only: before any, it would be a header row and nothing else.
  const hasLinks = known ? known.releasedIds.length > 0 : classReleases.isError;
  const csvHintId = useId();
  // Only the rows this release takes: the selected ones, else every reviewed one not released yet.
  const addedSet = new Set(questionsAddedIds);
  // Of the selected rows, those released: a row skipped as not graded yet is not warned about.
  const addedSelected = selectedIds.filter((id) => addedSet.has(id) && (!finished || finished.has(id)));
  const reviewedSet = known ? new Set(known.reviewedIds) : null;
  const added =
    selected > 0
      ? addedSelected.length
      : toRelease
        ? toRelease.filter((id) => addedSet.has(id)).length
        : Math.min(questionsAddedReviewed, reviewedCount);
  // Of those, the ones the teacher reviewed: every one when releasing all reviewed.
  const addedReviewed =
    selected > 0 ? (reviewedSet ? addedSelected.filter((id) => reviewedSet.has(id)).length : Math.min(questionsAddedReviewed, added)) : added;

  // A dialog opened again shows no earlier error.
  const { reset } = release;
  useEffect(() => {
    if (open) reset();
  }, [open, reset]);

  async function submit() {
    try {
      const out = await release.mutateAsync({
        assignmentId,
        // With some reviewed results released already, only the others: a released one asked again
        // would be emailed again.
        submissionIds: selected > 0 ? selectedIds : toRelease && alreadyReleased > 0 ? toRelease : undefined,
        sendEmail: emailEnabled && sendEmail,
      });
      // Students, not rows: one student's two attempts are one person emailed.
      const emailed = new Set(out.releases.filter((r) => r.email === 'queued').map((r) => r.studentEmail.toLowerCase() || r.submissionId)).size;
      let message = `Released ${results(out.releases.length)}.`;
      if (emailed > 0) message += ` Emailing ${emailed} ${emailed === 1 ? 'student' : 'students'}.`;
      message += skippedSentence(out);
      if (selected === 0 && alreadyReleased > 0) message += ` ${alreadyReleased} ${alreadyReleased === 1 ? 'was' : 'were'} released already.`;
      onClose();
      onReleased?.();
      showToast({ type: 'success', message });
    } catch {
      // Shown in the dialog (release.error).
    }
  }

  async function download() {
    setDownloading(true);
    try {
      await downloadLinksCsv(assignmentId);
    } catch (error) {
      showToast({ type: 'error', message: errorMessage(error, "We couldn't download the links. Please try again.") });
    } finally {
      setDownloading(false);
    }
  }

  return (
    <Dialog open={open} onClose={release.isPending ? undefined : onClose} aria-labelledby={titleId} fullScreen={fullScreen} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>Release results to students</DialogTitle>
      <DialogContent>
        {selected > 0 ? (
          counting ? (
            <Typography sx={{ mb: 2 }} role="status">
              {selected === 1 ? 'Checking whether the selected result can be released…' : `Checking which of the ${selected} selected results can be released…`}
            </Typography>
          ) : nothing ? (
            <Alert severity="info" sx={{ mb: 2 }} id={nothingSelectedId}>
              {nothingSelectedSentence(selected)}
            </Alert>
          ) : (
            <Typography sx={{ mb: 2 }}>
              {finished ? selectedSentence(selected, releasable) : `${releaseSentence(selected, 0)} Only graded or reviewed results can be released.`} You can
              revoke a link at any time.
            </Typography>
          )
        ) : (
          !(nothing && alreadyReleased > 0) && (
            <Typography sx={{ mb: 2 }}>
              {releaseSentence(selected, allCount)}{' '}
              Only graded or reviewed results can be released. You can revoke a link at any time.
            </Typography>
          )
        )}
        {selected === 0 && alreadyReleased > 0 && (
          <Alert severity={nothing ? 'success' : 'info'} sx={{ mb: 2 }}>
            {alreadyReleasedSentence(alreadyReleased, allCount)}
          </Alert>
        )}
        {noneReviewed && (
          <Alert severity="info" sx={{ mb: 2 }}>
            No result is reviewed yet. Select the rows to release in the table instead.
          </Alert>
        )}
        {added > 0 && (
          <Alert severity="warning" sx={{ mb: 2 }}>
            {questionsAddedSentence(added, addedReviewed)}
          </Alert>
        )}
        {emailEnabled ? (
          <FormControlLabel
            control={<Checkbox checked={sendEmail} onChange={(e) => setSendEmail(e.target.checked)} />}
            label="Email each student a link"
          />
        ) : (
          <Alert severity="info" variant="outlined">
            Email is not set up on this server. After releasing, copy each student&apos;s link from the table or download
            the list of links.
          </Alert>
        )}
        {release.isError && (
          <Alert severity="error" sx={{ mt: 2 }} role="alert">
            {errorMessage(release.error, "We couldn't release the results. Please try again.")}
          </Alert>
        )}
        {known && !hasLinks && (
          <Typography id={csvHintId} variant="body2" color="text.secondary" sx={{ mt: 2 }}>
            No result is released yet, so there are no links to download. The list of links (CSV) can be downloaded once
            results are released.
          </Typography>
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1, px: 3, pb: 2 }}>
        <Button
          startIcon={downloading ? <CircularProgress size={16} /> : <DownloadRounded />}
          onClick={() => void download()}
          disabled={downloading || !hasLinks}
          aria-describedby={known && !hasLinks ? csvHintId : undefined}
          sx={{ mr: 'auto' }}
        >
          Download links (CSV)
        </Button>
        <Box sx={{ display: 'flex', gap: 1, ml: 'auto' }}>
          <Button onClick={onClose} disabled={release.isPending}>
            Cancel
          </Button>
          <Button
            variant="contained"
            onClick={() => void submit()}
            disabled={release.isPending || nothing || counting}
            aria-describedby={selected > 0 && nothing && !counting ? nothingSelectedId : undefined}
            startIcon={release.isPending ? <CircularProgress size={16} color="inherit" /> : undefined}
          >
            {label}
          </Button>
        </Box>
      </DialogActions>
    </Dialog>
  );
}
