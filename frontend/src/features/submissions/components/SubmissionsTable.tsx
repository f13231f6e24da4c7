import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import type { Submission } from '../api/types';
import { sortSubmissions, studentLabel, type Sort, type SortColumn } from '../lib/sort';
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

/** Hidden on a phone, where the table keeps name (with the student under it), status and actions. */
const WIDE_ONLY = { display: { xs: 'none', sm: 'table-cell' } } as const;

const COLUMNS: { id: SortColumn; label: string; wideOnly?: boolean; numeric?: boolean }[] = [
  { id: 'name', label: 'Name' },
  { id: 'student', label: 'Student', wideOnly: true },
  { id: 'status', label: 'Status' },
  { id: 'preview', label: 'Preview', wideOnly: true },
  { id: 'pages', label: 'Pages', wideOnly: true, numeric: true },
];

/** Props for {@link SubmissionsTable}. */
export interface SubmissionsTableProps {
  submissions: Submission[];
  sort: Sort;
  onSort: (sort: Sort) => void;
  selected: ReadonlySet<string>;
  onSelectedChange: (selected: Set<string>) => void;
  /** The actions menu of one row. */
  renderActions: (submission: Submission) => ReactNode;
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
          {studentEmail}
        </Typography>
      )}
    </>
  );
}

/**
 * The submissions of an assignment as a table: sortable by every column, with a checkbox per row
 * (and one for all) and an actions menu. On a phone the preview and page columns are hidden.
 */
export function SubmissionsTable({ submissions, sort, onSort, selected, onSelectedChange, renderActions }: SubmissionsTableProps) {
  const rows = sortSubmissions(submissions, sort);
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
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label="Submissions" sx={{ '& td, & th': { verticalAlign: 'top' } }}>
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox">
              <Checkbox
                checked={allSelected}
                indeterminate={selectedCount > 0 && !allSelected}
                onChange={() => onSelectedChange(allSelected ? new Set() : new Set(submissions.map((s) => s._id)))}
                slotProps={{ input: { 'aria-label': 'Select all submissions' } }}
              />
            </TableCell>
            {COLUMNS.map((column) => (
              <TableCell
                key={column.id}
                align={column.numeric ? 'right' : 'left'}
                sortDirection={sort.column === column.id ? sort.direction : false}
                sx={column.wideOnly ? WIDE_ONLY : undefined}
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
            <TableCell padding="checkbox">
              <Box component="span" sx={visuallyHidden}>
                Actions
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((s) => (
            <TableRow key={s._id} hover selected={selected.has(s._id)}>
              <TableCell padding="checkbox">
                <Checkbox
                  checked={selected.has(s._id)}
                  onChange={() => toggle(s._id)}
                  slotProps={{ input: { 'aria-label': `Select ${s.name}` } }}
                />
              </TableCell>
              <TableCell component="th" scope="row" sx={{ fontWeight: 500, overflowWrap: 'anywhere', minWidth: 120 }}>
                {s.name}
                {studentLabel(s) && studentLabel(s) !== s.name && (
                  <Typography variant="body2" color="text.secondary" sx={{ display: { sm: 'none' }, overflowWrap: 'anywhere' }}>
                    {studentLabel(s)}
                  </Typography>
                )}
              </TableCell>
              <TableCell sx={{ ...WIDE_ONLY, minWidth: 120 }}>
                <StudentCell submission={s} />
              </TableCell>
              <TableCell>
                <StatusChip submission={s} />
              </TableCell>
              <TableCell sx={{ ...WIDE_ONLY, maxWidth: 320 }}>
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
