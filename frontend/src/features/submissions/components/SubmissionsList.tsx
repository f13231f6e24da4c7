import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useMemo, useState, type ReactNode } from 'react';
import { lazyComponent } from '../../../components/lazy-component';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { downloadOriginal } from '../../../lib/original';
import { useDeleteSubmission } from '../api/delete-submission';
import { useDeleteSubmissions } from '../api/delete-submissions';
import type { AssignmentQueryKey } from '../api/keys';
import type { Submission, SubmissionsAssignment } from '../api/types';
import { readResultSummaries, resultIdFor } from '../lib/function-results';
import { submissionReviewPath } from '../lib/review-path';
import type { ResultsBySubmission, Sort } from '../lib/sort';
import type { SubmissionField } from './EditSubmissionDialog';
import { GradeButtons } from './GradeButtons';
import { RegradeChangedButton } from './RegradeChangedButton';
import { SubmissionActionsMenu, type SubmissionAction } from './SubmissionActionsMenu';
import { SubmissionsTable } from './SubmissionsTable';

// Loads when first drawn: the page's first load does not carry it (docs/performance.md, "First load").
const EditSubmissionDialog = lazyComponent(() => import('./EditSubmissionDialog').then((m) => m.EditSubmissionDialog));
const SubmissionTextDialog = lazyComponent(() => import('./SubmissionTextDialog').then((m) => m.SubmissionTextDialog));

/** Props for {@link SubmissionsList}. */
export interface SubmissionsListProps {
  assignment: SubmissionsAssignment;
  submissions: Submission[];
  functionResults: readonly unknown[];
  assignmentQueryKey: AssignmentQueryKey;
  /** More toolbar buttons from other features (e.g. "Release"), given the rows and the selection. */
  toolbar?: (ctx: SubmissionsToolbarContext) => ReactNode;
  /** More about a row under its result (e.g. the release's chip). */
  renderResultExtra?: (submission: Submission) => ReactNode;
}

/** What {@link SubmissionsListProps.toolbar} is given. */
export interface SubmissionsToolbarContext {
  submissions: Submission[];
  chosen: Submission[];
  results: ResultsBySubmission;
  clearSelection: () => void;
}

function plural(n: number): string {
  return `${n} ${n === 1 ? 'submission' : 'submissions'}`;
}

/**
 * The submissions table with what acts on it: grading all or the selected, selecting many and
 * deleting them after a confirmation, and each row's rename, student email, text and delete.
 */
export function SubmissionsList({ assignment, submissions, functionResults, assignmentQueryKey, toolbar, renderResultExtra }: SubmissionsListProps) {
  const { showToast } = useToast();
  const [sort, setSort] = useState<Sort>({ column: 'name', direction: 'asc' });
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirmMany, setConfirmMany] = useState(false);
  const [editing, setEditing] = useState<{ submission: Submission; field: SubmissionField } | null>(null);
  const [viewing, setViewing] = useState<Submission | null>(null);
  // The row being deleted stays named while its dialog closes.
  const [deleting, setDeleting] = useState<Submission | null>(null);
  const [confirmOne, setConfirmOne] = useState(false);
  const deleteOne = useDeleteSubmission(assignmentQueryKey);
  const deleteMany = useDeleteSubmissions(assignmentQueryKey);
  const results = useMemo(() => readResultSummaries(functionResults), [functionResults]);

  // Only rows still listed count as selected (others were deleted, here or elsewhere).
  const chosen = submissions.filter((s) => selected.has(s._id));

  const onAction = (submission: Submission, action: SubmissionAction) => {
    if (action === 'rename') setEditing({ submission, field: 'name' });
    else if (action === 'email') setEditing({ submission, field: 'email' });
    else if (action === 'view') setViewing(submission);
    else if (action === 'download') {
      downloadOriginal(submission._id).catch((error: unknown) =>
        showToast({ type: 'error', message: errorMessage(error, "We couldn't download the file. Please try again.") }),
      );
    }
    else {
      setDeleting(submission);
      setConfirmOne(true);
    }
  };

  async function removeMany() {
    const ids = chosen.map((s) => s._id);
    try {
      const deleted = await deleteMany.mutateAsync({
        assignmentId: assignment._id,
        submissionIds: ids,
        frIds: ids.map((id) => resultIdFor(functionResults, id)).filter((id): id is string => id !== null),
        type: assignment.type,
      });
      showToast({ type: 'success', message: `Deleted ${plural(deleted || ids.length)}.` });
      setSelected(new Set());
      setConfirmMany(false);
    } catch (error) {
      // Closed first: an open dialog hides the toast from screen readers.
      setConfirmMany(false);
      showToast({ type: 'error', message: errorMessage(error, "We couldn't delete the submissions. Please try again.") });
    }
  }

  async function removeOne(submission: Submission) {
    try {
      await deleteOne.mutateAsync({
        assignmentId: assignment._id,
        submissionId: submission._id,
        type: assignment.type,
        frId: resultIdFor(functionResults, submission._id),
      });
      showToast({ type: 'success', message: `Deleted ${submission.name}.` });
      setConfirmOne(false);
    } catch (error) {
      setConfirmOne(false);
      showToast({ type: 'error', message: errorMessage(error, "We couldn't delete the submission. Please try again.") });
    }
  }

  return (
    <>
      <Box
        role="toolbar"
        aria-label="Selected submissions"
        sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, minHeight: 40, mb: 1, flexWrap: 'wrap' }}
      >
        <Typography color="text.secondary" aria-live="polite">
          {chosen.length > 0 ? `${chosen.length} selected` : plural(submissions.length)}
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          {chosen.length > 0 && (
            <Button color="error" variant="outlined" size="small" startIcon={<DeleteOutlineRounded />} onClick={() => setConfirmMany(true)}>
              Delete selected
            </Button>
          )}
          {toolbar?.({ submissions, chosen, results, clearSelection: () => setSelected(new Set()) })}
          <RegradeChangedButton
            assignment={assignment}
            submissions={submissions}
            results={results}
            assignmentQueryKey={assignmentQueryKey}
          />
          <GradeButtons
            assignment={assignment}
            submissions={submissions}
            chosen={chosen}
            results={results}
            assignmentQueryKey={assignmentQueryKey}
            onStarted={() => setSelected(new Set())}
          />
        </Box>
      </Box>
      <SubmissionsTable
        submissions={submissions}
        sort={sort}
        onSort={setSort}
        selected={selected}
        onSelectedChange={setSelected}
        renderActions={(s) => <SubmissionActionsMenu submission={s} onAction={(action) => onAction(s, action)} />}
        results={results}
        type={assignment.type}
        reviewPath={(s) => submissionReviewPath(assignment._id, s._id)}
        renderResultExtra={renderResultExtra}
      />

      <ConfirmDialog
        open={confirmMany}
        title={`Delete ${plural(chosen.length)}?`}
        description="Their files and any results will be deleted. This can't be undone."
        confirmLabel="Delete"
        pending={deleteMany.isPending}
        onConfirm={() => void removeMany()}
        onClose={() => setConfirmMany(false)}
      />
      <ConfirmDialog
        open={confirmOne}
        title={`Delete ${deleting?.name ?? 'submission'}?`}
        description="The file and any result will be deleted. This can't be undone."
        confirmLabel="Delete"
        pending={deleteOne.isPending}
        onConfirm={() => deleting && void removeOne(deleting)}
        onClose={() => setConfirmOne(false)}
      />
      <EditSubmissionDialog
        submission={editing?.submission ?? null}
        field={editing?.field ?? 'name'}
        assignmentQueryKey={assignmentQueryKey}
        onClose={() => setEditing(null)}
      />
      <SubmissionTextDialog submission={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
