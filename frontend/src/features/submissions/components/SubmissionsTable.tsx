import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { SxProps, Theme } from '@mui/material/styles';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { startTransition, useEffect, useState, type MouseEvent, type ReactNode } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import type { Submission } from '../api/types';
import { sortSubmissions, studentLabel, type ResultsBySubmission, type Sort, type SortColumn } from '../lib/sort';
import { ResultCell } from './ResultCell';
import { StatusChip } from './StatusChip';

/** Read by screen readers, not shown. */
const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;

/** Hidden on a phone, where the table keeps name (with the student under it), result and actions. */
const WIDE_ONLY = { display: { xs: 'none', sm: 'table-cell' } } as const;
/**
 * A file name with a line-break opportunity after each `_`, `-` and `.` (file names join their words
 * with them), so that a phone wraps "Maya_Lopez_Geography…" between its words, never inside one.
 */
export function breakableName(name: string): ReactNode[] {
  return name.split(/(?<=[_\-.])/).flatMap((part, i) => (i === 0 ? [part] : [<wbr key={i} />, part]));
}

/** Shown on a large screen only: the preview is the first column to give way. */
const LARGE_ONLY = { display: { xs: 'none', lg: 'table-cell' } } as const;
/**
 * On a phone the table is laid out to the screen's width (`table-layout: fixed`), never wider: the
 * checkbox and actions columns keep their size, the result column gets {@link PHONE_RESULT_WIDTH}
 * and the name takes the rest, on up to three lines, then an ellipsis. So every row's actions button is on the screen
 * without scrolling sideways. From `sm` up the table sizes its columns to their content as before.
 */
const PHONE_FIT = { tableLayout: { xs: 'fixed', sm: 'auto' } } as const;
/** The result column's width on a phone: room for a chip such as "Not released" on one line. */
const PHONE_RESULT_WIDTH = 118;
/** The result column's padding: narrower on a phone, where the name needs every pixel. */
const RESULT_PADDING = { px: { xs: 1, sm: 2 } } as const;
/** The result column's header: on a phone it sets the column's width (the fixed layout reads the first row). */
const RESULT_HEAD = { ...RESULT_PADDING, width: { xs: PHONE_RESULT_WIDTH, sm: 'auto' } } as const;
/** A result cell: the padding, and at least 110px beside the other columns on a larger screen. */
const RESULT_CELL = { ...RESULT_PADDING, minWidth: { sm: 110 } } as const;
/** The name column's padding: narrower on a phone, where the name needs every pixel. */
const NAME_PADDING = { px: { xs: 1, sm: 2 } } as const;
/**
 * The checkbox and actions columns' headers: MUI's 24px is the content's width but the box is
 * border-box, so the fixed layout on a phone would draw them 28px wide; 52px (24 + its padding) is
 * what the content needs, as the table is drawn on a larger screen. (Under MUI's own selector, to
 * outweigh it.)
 */
const CHECKBOX_HEAD = { '&.MuiTableCell-paddingCheckbox': { width: { xs: 52, sm: 24 } } } as const;

type Width = 'wide' | 'large';

/**
 * How many rows the table's first draw holds: about a screenful. The rest of the page's rows
 * follow at once in a transition, which React draws in slices the browser can paint between, so a
 * teacher opening a class sees its first rows without waiting for all fifty (docs/performance.md,
 * "Issue 23 after session 19").
 */
export const FIRST_DRAW_ROWS = 12;

/** How many of `count` rows to draw: {@link FIRST_DRAW_ROWS} on the first draw, every row after it. */
function useRowsDrawn(count: number): number {
  const [all, setAll] = useState(false);
  useEffect(() => {
    if (!all) startTransition(() => setAll(true));
  }, [all]);
  return all ? count : Math.min(count, FIRST_DRAW_ROWS);
}

const COLUMNS: { id: SortColumn; label: string; only?: Width; numeric?: boolean }[] = [
  { id: 'name', label: 'Name' },
  { id: 'student', label: 'Student', only: 'wide' },
  { id: 'status', label: 'Status' },
  { id: 'result', label: 'Result' },
  { id: 'preview', label: 'Preview', only: 'large' },
  { id: 'pages', label: 'Pages', only: 'wide', numeric: true },
];

const ONLY = { wide: WIDE_ONLY, large: LARGE_ONLY } as const;
/** The headers' own styles, by column (the fixed layout on a phone reads its widths from them). */
const HEAD: Partial<Record<SortColumn, SxProps<Theme>>> = { name: NAME_PADDING, result: RESULT_HEAD };

/** True when a click landed on something of its own (a checkbox, button, link or a menu in a portal). */
function isOwnControl(event: MouseEvent<HTMLElement>): boolean {
  const target = event.target as Element;
  if (!event.currentTarget.contains(target)) return true;
  return target.closest('a, button, input, label, [role="menuitem"]') !== null;
}

/** Props for {@link SubmissionsTable}. */
export interface SubmissionsTableProps {
  submissions: Submission[];
  /** The rows come sorted (by the server): shown in their order, `sort` only marks the header. */
  sorted?: boolean;
  sort: Sort;
  onSort: (sort: Sort) => void;
  selected: ReadonlySet<string>;
  onSelectedChange: (selected: Set<string>) => void;
  /** The actions menu of one row. */
  renderActions: (submission: Submission) => ReactNode;
  /** Each submission's function result, by submission id. */
  results?: ResultsBySubmission;
  /** The assignment's type, for the wording of results never run. */
  type?: string;
  /** Where a row leads: its submission's review screen. */
  reviewPath: (submission: Submission) => string;
  /** More about a row under its result (other features, e.g. the release's chip and actions). */
  renderResultExtra?: (submission: Submission) => ReactNode;
}

function StudentCell({ submission }: { submission: Submission }) {
  const { studentName, studentEmail } = submission;
  if (!studentName && !studentEmail) return <Typography color="text.secondary">—</Typography>;
  return (
    <>
      {studentName && (
        <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
          {studentName}
        </Typography>
      )}
      {studentEmail && (
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {/* A narrow column breaks an address after its @ (olivia@ / pupils.test), not inside a word. */}
          {studentEmail.includes('@') ? (
            <>
              {studentEmail.slice(0, studentEmail.indexOf('@') + 1)}
              <wbr />
              {studentEmail.slice(studentEmail.indexOf('@') + 1)}
            </>
          ) : (
            studentEmail
          )}
        </Typography>
      )}
    </>
  );
}

/**
 * Which attempt a student's submission through the link is, when they submitted more than once:
 * "Attempt 2" with a link to the review of the attempt before it (while it is still there), and
 * "Attempt 1" on a first attempt that has a later one.
 */
function AttemptLine({
  submission,
  previous,
  hasLater,
  reviewPath,
}: {
  submission: Submission;
  previous: Submission | undefined;
  hasLater: boolean;
  reviewPath: (submission: Submission) => string;
}) {
  if (submission.attempt <= 1 && !hasLater) return null;
  return (
    <Typography variant="body2" color="text.secondary" sx={{ fontWeight: 400, overflowWrap: 'anywhere' }}>
      {`Attempt ${submission.attempt}`}
      {previous && (
        <>
          {' · '}
          <Link component={RouterLink} to={reviewPath(previous)} underline="always" color="inherit">
            {`See attempt ${previous.attempt}`}
          </Link>
        </>
      )}
    </Typography>
  );
}

/**
 * The submissions of an assignment as a table: sortable by every column, with a checkbox per row
 * (and one for all), the result's status and points, and an actions menu. The name links to the
 * review screen and a click anywhere else on the row goes there too. On a phone the student,
 * preview and page columns are hidden and the table fits the screen's width (the name truncated), so
 * every row's actions button shows without scrolling sideways.
 */
export function SubmissionsTable({
  submissions,
  sorted = false,
  sort,
  onSort,
  selected,
  onSelectedChange,
  renderActions,
  results = new Map(),
  type = '',
  reviewPath,
  renderResultExtra,
}: SubmissionsTableProps) {
  const navigate = useNavigate();
  // A phone has no room for the reading status beside the result: it shows in the result's cell
  // while the submission is not ready. (Without matchMedia, e.g. in tests, the wide table.)
  const wide = useMediaQuery((theme: Theme) => theme.breakpoints.up('sm'), { defaultMatches: true });
  const columns = wide ? COLUMNS : COLUMNS.filter((c) => c.id !== 'status');
  const rows = sorted ? submissions : sortSubmissions(submissions, sort, results);
  const drawn = useRowsDrawn(rows.length);
  const byId = new Map(submissions.map((s) => [s._id, s]));
  const earlier = new Set(submissions.map((s) => s.previousSubmissionId).filter((id): id is string => id !== null));
  const selectedCount = submissions.filter((s) => selected.has(s._id)).length;
  const allSelected = submissions.length > 0 && selectedCount === submissions.length;

  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onSelectedChange(next);
  };
  const sortBy = (column: SortColumn) =>
    onSort({ column, direction: sort.column === column && sort.direction === 'asc' ? 'desc' : 'asc' });

  return (
    // Positioned, so the visually hidden header stays inside the scrolling area.
    <TableContainer sx={{ overflowX: 'auto', position: 'relative' }}>
      <Table size="small" aria-label="Submissions" sx={{ ...PHONE_FIT, '& td, & th': { verticalAlign: 'top' } }}>
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox" sx={CHECKBOX_HEAD}>
              <Checkbox
                checked={allSelected}
                indeterminate={selectedCount > 0 && !allSelected}
                onChange={() => {
                  // The rows shown join or leave the selection; rows of other pages stay as they are.
                  const next = new Set(selected);
                  for (const s of submissions) {
                    if (allSelected) next.delete(s._id);
                    else next.add(s._id);
                  }
                  onSelectedChange(next);
                }}
                slotProps={{ input: { 'aria-label': 'Select all submissions' } }}
              />
            </TableCell>
            {columns.map((column) => (
              <TableCell
                key={column.id}
                align={column.numeric ? 'right' : 'left'}
                sortDirection={sort.column === column.id ? sort.direction : false}
                sx={column.only ? ONLY[column.only] : HEAD[column.id]}
              >
                <TableSortLabel
                  active={sort.column === column.id}
                  direction={sort.column === column.id ? sort.direction : 'asc'}
                  onClick={() => sortBy(column.id)}
                >
                  {column.label}
                </TableSortLabel>
              </TableCell>
            ))}
            <TableCell padding="checkbox" sx={CHECKBOX_HEAD}>
              <Box component="span" sx={visuallyHidden}>
                Actions
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.slice(0, drawn).map((s) => (
            <TableRow
              key={s._id}
              hover
              selected={selected.has(s._id)}
              onClick={(event) => {
                if (!isOwnControl(event)) void navigate(reviewPath(s));
              }}
              sx={{ cursor: 'pointer' }}
            >
              <TableCell padding="checkbox">
                <Checkbox
                  checked={selected.has(s._id)}
                  onChange={() => toggle(s._id)}
                  slotProps={{ input: { 'aria-label': `Select ${s.name}` } }}
                />
              </TableCell>
              <TableCell component="th" scope="row" sx={{ ...NAME_PADDING, fontWeight: 500, overflowWrap: 'anywhere', minWidth: { xs: 96, sm: 120 } }}>
                {/* A long file name ends in an ellipsis (never broken mid-word); the whole name is its title.
                    On a phone, where the column is narrow and the row tall anyway, it wraps onto up to
                    three lines first ("Amara O…" told nobody which Amara), at spaces and after _ - .
                    (breakableName), then ends in the ellipsis. */}
                <Link
                  component={RouterLink}
                  to={reviewPath(s)}
                  color="inherit"
                  underline="hover"
                  title={s.name}
                  sx={{
                    display: { xs: '-webkit-box', sm: 'block' },
                    WebkitBoxOrient: 'vertical',
                    WebkitLineClamp: { xs: 3, sm: 'none' },
                    overflowWrap: 'break-word',
                    maxWidth: { xs: 'none', sm: 240, md: 360 },
                    overflow: 'hidden',
                    textOverflow: 'ellipsis',
                    whiteSpace: { xs: 'normal', sm: 'nowrap' },
                    '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2, borderRadius: 0.5 },
                  }}
                >
                  {breakableName(s.name)}
                </Link>
                <AttemptLine
                  submission={s}
                  previous={s.previousSubmissionId ? byId.get(s.previousSubmissionId) : undefined}
                  hasLater={earlier.has(s._id)}
                  reviewPath={reviewPath}
                />
                {studentLabel(s) && studentLabel(s) !== s.name && (
                  <Typography variant="body2" color="text.secondary" sx={{ display: { sm: 'none' }, overflowWrap: 'anywhere' }}>
                    {studentLabel(s)}
                  </Typography>
                )}
              </TableCell>
              <TableCell sx={{ ...WIDE_ONLY, minWidth: 120 }}>
                <StudentCell submission={s} />
              </TableCell>
              {wide && (
                <TableCell>
                  <StatusChip submission={s} checkPath={(page) => `${reviewPath(s)}?page=${page}`} />
                </TableCell>
              )}
              <TableCell sx={RESULT_CELL}>
                {!wide && (s.status !== 'ready' || s.error) && (
                  <Box sx={{ mb: 1 }}>
                    <StatusChip submission={s} checkPath={(page) => `${reviewPath(s)}?page=${page}`} />
                  </Box>
                )}
                <ResultCell result={results.get(s._id)} type={type} />
                {renderResultExtra?.(s)}
              </TableCell>
              <TableCell sx={{ ...LARGE_ONLY, maxWidth: 320 }}>
                <Typography
                  variant="body2"
                  color="text.secondary"
                  sx={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden', overflowWrap: 'anywhere' }}
                >
                  {s.preview}
                </Typography>
              </TableCell>
              <TableCell align="right" sx={WIDE_ONLY}>
                {s.pageCount > 0 ? s.pageCount : '—'}
              </TableCell>
              <TableCell padding="checkbox">{renderActions(s)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
