import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import type TablePaginationComponent from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { lazyComponent } from '../../../components/lazy-component';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { downloadOriginal } from '../../../lib/original';
import { useDeleteSubmission } from '../api/delete-submission';
import { useDeleteSubmissions } from '../api/delete-submissions';
import type { AssignmentQueryKey } from '../api/keys';
import type { Submission, SubmissionsAssignment } from '../api/types';
import {
  getSubmissionRows,
  ROW_BUCKETS,
  ROWS_PER_PAGE,
  rowsParamsFromSearch,
  useSubmissionRows,
  type RowBucket,
  type RowSort,
  type RowsParams,
  type SubmissionRow,
} from '../api/get-submission-rows';
import { submissionReviewPath } from '../lib/review-path';
import type { ResultsBySubmission, Sort, SortColumn } from '../lib/sort';
import type { SubmissionField } from './EditSubmissionDialog';
import { GradeButtons } from './GradeButtons';
import { RegradeChangedButton } from './RegradeChangedButton';
import { SubmissionActionsMenu, type SubmissionAction } from './SubmissionActionsMenu';
import { SubmissionsTable } from './SubmissionsTable';
import { assignmentTypeInfo } from '../../../lib/assignment-type';

/**
 * MUI's pagination (with its page buttons' tooltips and popper.js, ~13 kB gzipped) loads from its
 * own chunk: only a class of more than 25 draws it, below the table, and until it arrives a bar of
 * its height holds its place so nothing moves.
 */
const TablePagination = lazyComponent(
  () => import('@mui/material/TablePagination').then((m) => m.default as ComponentType<object>),
  <Box sx={{ minHeight: 52 }} />,
) as unknown as typeof TablePaginationComponent;

// Loads when first drawn: the page's first load does not carry it (docs/performance.md, "First load").
const EditSubmissionDialog = lazyComponent(() => import('./EditSubmissionDialog').then((m) => m.EditSubmissionDialog));
const SubmissionTextDialog = lazyComponent(() => import('./SubmissionTextDialog').then((m) => m.SubmissionTextDialog));

/** Props for {@link SubmissionsList}. */
export interface SubmissionsListProps {
  assignment: SubmissionsAssignment;
  assignmentQueryKey: AssignmentQueryKey;
  /** More toolbar buttons from other features (e.g. "Release"), given the rows and the selection. */
  toolbar?: (ctx: SubmissionsToolbarContext) => ReactNode;
  /** More about a row under its result (e.g. the release's chip). */
  renderResultExtra?: (submission: Submission) => ReactNode;
}

/** What {@link SubmissionsListProps.toolbar} is given. */
export interface SubmissionsToolbarContext {
  /** The rows of the page shown. */
  submissions: Submission[];
  /** The selected submissions among those seen (the selection may span pages: see chosenIds). */
  chosen: Submission[];
  /** Every selected submission's id, on any page. */
  chosenIds: string[];
  results: ResultsBySubmission;
  /** The whole class by status bucket. */
  counts: Record<RowBucket, number>;
  /** How many of the whole class were imported from Google Classroom. */
  classroomSubmissions: number;
  /**
   * The whole class's submissions whose result was graded before a question or criterion was added
   * to the assignment (not only changed): their students would see it as not met.
   */
  questionsAddedIds: string[];
  /** How many of those the teacher reviewed. */
  questionsAddedReviewed: number;
  clearSelection: () => void;
}

const BUCKET_LABELS: Record<'all' | RowBucket, string> = {
  all: 'All',
  reading: 'Being read',
  ungraded: 'Not graded',
  grading: 'Grading',
  graded: 'Graded',
  reviewed: 'Reviewed',
  failed: 'Failed',
};

/**
 * A bucket's name in the status filter, in the words of the assignment's type (its verbs): a
 * feedback assignment's results are annotated, as its rows and its button say.
 */
function bucketLabel(bucket: RowBucket, type: string): string {
  const verbs = assignmentTypeInfo(type)?.verbs;
  if (!verbs) return BUCKET_LABELS[bucket];
  const done = verbs.done.charAt(0).toUpperCase() + verbs.done.slice(1);
  const byVerb: Partial<Record<RowBucket, string>> = { ungraded: `Not ${verbs.done}`, grading: verbs.running, graded: done };
  return byVerb[bucket] ?? BUCKET_LABELS[bucket];
}

/** The table's page, sort, filter and search, kept in the URL so the back button and links keep them. */
function useTableParams(): [RowsParams, (change: Partial<RowsParams>) => void] {
  const [search, setSearch] = useSearchParams();
  const params = rowsParamsFromSearch(search);
  const update = (change: Partial<RowsParams>) => {
    const next = { ...params, ...change };
    // A new sort, filter or search starts again at the first page.
    if (!('offset' in change)) next.offset = 0;
    setSearch(
      (prev) => {
        const out = new URLSearchParams(prev);
        const set = (key: string, value: string, fallback: string) => (value === fallback ? out.delete(key) : out.set(key, value));
        set('sort', next.sort, 'name');
        set('order', next.order, 'asc');
        set('status', next.status, 'all');
        set('q', next.search, '');
        set('per', String(next.limit), '50');
        set('page', String(Math.floor(next.offset / next.limit) + 1), '1');
        return out;
      },
      // Typing in the search box replaces the entry; a page, sort or filter is a step back can undo.
      { replace: 'search' in change },
    );
  };
  return [params, update];
}

function emptyCounts(): Record<RowBucket, number> {
  return Object.fromEntries(ROW_BUCKETS.map((b) => [b, 0])) as Record<RowBucket, number>;
}

function plural(n: number): string {
  return `${n} ${n === 1 ? 'submission' : 'submissions'}`;
}

/**
 * The submissions table with what acts on it: grading all or the selected, selecting many and
 * deleting them after a confirmation, and each row's rename, student email, text and delete.
 */
export function SubmissionsList({ assignment, assignmentQueryKey, toolbar, renderResultExtra }: SubmissionsListProps) {
  const { showToast } = useToast();
  const [params, setParams] = useTableParams();
  const [searchText, setSearchText] = useState(params.search);
  // The back button (or a link) may change the search: the box follows it.
  const shownSearch = useRef(params.search);
  if (params.search !== shownSearch.current) {
    shownSearch.current = params.search;
    if (searchText !== params.search) setSearchText(params.search);
  }
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [selectingAll, setSelectingAll] = useState(false);
  const [confirmMany, setConfirmMany] = useState(false);
  const [editing, setEditing] = useState<{ submission: Submission; field: SubmissionField } | null>(null);
  const [viewing, setViewing] = useState<Submission | null>(null);
  // The row being deleted stays named while its dialog closes.
  const [deleting, setDeleting] = useState<Submission | null>(null);
  const [confirmOne, setConfirmOne] = useState(false);
  const deleteOne = useDeleteSubmission(assignmentQueryKey);
  const deleteMany = useDeleteSubmissions(assignmentQueryKey);
  const rowsQuery = useSubmissionRows(assignment._id, assignmentQueryKey, params);
  const page = rowsQuery.data;
  const rows: SubmissionRow[] = useMemo(() => page?.rows ?? [], [page]);
  const submissions = useMemo(() => rows.map((r) => r.submission), [rows]);
  // Rows seen on any page, by id: the selection may span pages.
  const seen = useRef(new Map<string, SubmissionRow>());
  for (const r of rows) seen.current.set(r.submission._id, r);
  const results: ResultsBySubmission = useMemo(() => {
    const out = new Map();
    for (const r of rows) if (r.result) out.set(r.submission._id, r.result);
    return out;
  }, [rows]);
  const total = page?.total ?? 0;
  const classSize = page?.classSize ?? 0;

  // The search box asks the server once typing pauses.
  const setSearchRef = useRef(setParams);
  setSearchRef.current = setParams;
  useEffect(() => {
    if (searchText === params.search) return;
    const timer = setTimeout(() => setSearchRef.current({ search: searchText }), 300);
    return () => clearTimeout(timer);
  }, [searchText, params.search]);

  const chosenIds = [...selected];
  const chosen = chosenIds.map((id) => seen.current.get(id)?.submission).filter((s): s is Submission => s !== undefined);
  const resultIdFor = (id: string) => seen.current.get(id)?.result?._id ?? null;

  async function selectAllMatching() {
    setSelectingAll(true);
    try {
      const all = await getSubmissionRows(assignment._id, { ...params, offset: 0, limit: 1, ids: true });
      setSelected(new Set(all.submissionIds ?? []));
    } catch (error) {
      showToast({ type: 'error', message: errorMessage(error, "We couldn't select them. Please try again.") });
    } finally {
      setSelectingAll(false);
    }
  }

  /** Every submission of the class, for "Grade all", with the ones the teacher reviewed and those whose file could not be read. */
  const everyId = async () => {
    const all = await getSubmissionRows(assignment._id, { offset: 0, limit: 1, ids: true });
    return { ids: all.submissionIds ?? [], reviewed: all.reviewedIds ?? [], unreadable: all.unreadableIds ?? [] };
  };

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
    const ids = chosenIds;
    try {
      const deleted = await deleteMany.mutateAsync({
        assignmentId: assignment._id,
        submissionIds: ids,
        frIds: ids.map((id) => resultIdFor(id)).filter((id): id is string => id !== null),
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
        frId: resultIdFor(submission._id),
      });
      showToast({ type: 'success', message: `Deleted ${submission.name}.` });
      setConfirmOne(false);
    } catch (error) {
      setConfirmOne(false);
      showToast({ type: 'error', message: errorMessage(error, "We couldn't delete the submission. Please try again.") });
    }
  }

  const sort: Sort = { column: params.sort as SortColumn, direction: params.order };
  const pageAllSelected = submissions.length > 0 && submissions.every((s) => selected.has(s._id));

  return (
    <>
      <Box
        role="toolbar"
        aria-label="Selected submissions"
        sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, minHeight: 40, mb: 1, flexWrap: 'wrap' }}
      >
        <Typography color="text.secondary" aria-live="polite">
          {selected.size > 0 ? `${selected.size} selected` : plural(classSize)}
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          {selected.size > 0 && (
            <Button color="error" variant="outlined" size="small" startIcon={<DeleteOutlineRounded />} onClick={() => setConfirmMany(true)}>
              Delete selected
            </Button>
          )}
          {toolbar?.({ submissions, chosen, chosenIds, results, counts: page?.counts ?? emptyCounts(), classroomSubmissions: page?.classroomSubmissions ?? 0, questionsAddedIds: page?.questionsAddedIds ?? [], questionsAddedReviewed: page?.questionsAddedReviewed ?? 0, clearSelection: () => setSelected(new Set()) })}
          <RegradeChangedButton
            assignment={assignment}
            outdatedIds={page?.outdatedIds ?? []}
            reviewed={page?.outdatedReviewed ?? 0}
            assignmentQueryKey={assignmentQueryKey}
          />
          <GradeButtons
            assignment={assignment}
            classSize={classSize}
            chosenIds={chosenIds}
            reviewedIds={chosenIds.filter((id) => seen.current.get(id)?.bucket === 'reviewed')}
            unreadableIds={chosenIds.filter((id) => seen.current.get(id)?.submission.status === 'failed')}
            everyId={everyId}
            assignmentQueryKey={assignmentQueryKey}
            onStarted={() => setSelected(new Set())}
          />
        </Box>
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, mb: 1, alignItems: 'center' }}>
        <TextField
          size="small"
          type="search"
          label="Search"
          placeholder="Name or email"
          value={searchText}
          onChange={(e) => setSearchText(e.target.value)}
          sx={{ minWidth: 220 }}
        />
        <TextField
          select
          size="small"
          label="Status"
          value={params.status}
          onChange={(e) => setParams({ status: e.target.value as RowsParams['status'] })}
          sx={{ minWidth: 180 }}
        >
          {(['all', ...ROW_BUCKETS] as const).map((b) => (
            <MenuItem key={b} value={b}>
              {b === 'all' ? `All (${classSize})` : `${bucketLabel(b, assignment.type)} (${page?.counts[b] ?? 0})`}
            </MenuItem>
          ))}
        </TextField>
        {pageAllSelected && selected.size < total && (
          <Button size="small" onClick={() => void selectAllMatching()} loading={selectingAll}>
            {`Select all ${total} matching`}
          </Button>
        )}
      </Box>
      {!page ? (
        <Typography color="text.secondary" role="status" sx={{ py: 2 }}>
          {rowsQuery.isError ? errorMessage(rowsQuery.error, "We couldn't load the submissions. Please try again.") : 'Loading submissions…'}
        </Typography>
      ) : total === 0 && classSize > 0 ? (
        <Typography color="text.secondary" sx={{ py: 2 }}>
          No submissions match.
        </Typography>
      ) : (
        <SubmissionsTable
          submissions={submissions}
          sorted
          sort={sort}
          onSort={(next) => setParams({ sort: next.column as RowSort, order: next.direction })}
          selected={selected}
          onSelectedChange={setSelected}
          renderActions={(s) => <SubmissionActionsMenu submission={s} onAction={(action) => onAction(s, action)} />}
          results={results}
          type={assignment.type}
          reviewPath={(s) => submissionReviewPath(assignment._id, s._id)}
          renderResultExtra={renderResultExtra}
        />
      )}
      {total > ROWS_PER_PAGE[0] && (
        <TablePagination
          component="div"
          count={total}
          page={Math.floor(params.offset / params.limit)}
          rowsPerPage={params.limit}
          rowsPerPageOptions={[...ROWS_PER_PAGE]}
          onPageChange={(_, p) => setParams({ offset: p * params.limit })}
          onRowsPerPageChange={(e) => setParams({ limit: Number(e.target.value), offset: 0 })}
        />
      )}

      <ConfirmDialog
        open={confirmMany}
        title={`Delete ${plural(selected.size)}?`}
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
