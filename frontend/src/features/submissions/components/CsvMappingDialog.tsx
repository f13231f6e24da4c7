import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { useImportCsv } from '../api/import-csv';
import type { AssignmentQueryKey } from '../api/keys';
import type { CsvMapping, SubmissionsAssignment } from '../api/types';
import type { CsvDraft } from '../hooks/use-csv-import';
import { CsvPreviewTable } from './CsvPreviewTable';

/** Props for {@link CsvMappingDialog}. */
export interface CsvMappingDialogProps {
  assignment: SubmissionsAssignment;
  draft: CsvDraft;
  /** The assignment's top-level questions, by index. */
  questions: string[];
  assignmentQueryKey: AssignmentQueryKey;
  onClose: () => void;
}

function columnLabel(headers: string[], index: number): string {
  const header = headers[index]?.trim();
  return header ? header : `Column ${index + 1}`;
}

/** The questions to map: the assignment's, plus any the server's suggestion names beyond them. */
function questionCount(questions: string[], mapping: CsvMapping): number {
  return Math.max(questions.length, ...mapping.questions.map((q) => q.question + 1));
}

function ColumnSelect({
  label,
  value,
  onChange,
  headers,
  noneLabel,
}: { label: string; value: number; onChange: (column: number) => void; headers: string[]; noneLabel?: string }) {
  return (
    <TextField
      select
      label={label}
      value={String(value)}
      onChange={(event) => onChange(Number(event.target.value))}
      slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
      size="small"
    >
      {noneLabel !== undefined && <option value="-1">{noneLabel}</option>}
      {headers.map((_, index) => (
        <option key={index} value={String(index)}>
          {columnLabel(headers, index)}
        </option>
      ))}
    </TextField>
  );
}

/**
 * Maps a CSV's columns to submissions: the first rows for reference, then the column holding the
 * student's name, their email (or none) and each top-level question's answer, with the server's
 * suggestion preselected. Importing sends the mapping as `parsedCSV`.
 */
export function CsvMappingDialog({ assignment, draft, questions, assignmentQueryKey, onClose }: CsvMappingDialogProps) {
  const titleId = useId();
  const { showToast } = useToast();
  const importCsv = useImportCsv(assignmentQueryKey);
  const { preview } = draft;
  const [nameColumn, setNameColumn] = useState(preview.mapping.nameColumn);
  const [emailColumn, setEmailColumn] = useState(preview.mapping.emailColumn);
  const [answerColumns, setAnswerColumns] = useState<number[]>(() =>
    Array.from({ length: questionCount(questions, preview.mapping) }, (_, i) => preview.mapping.questions.find((q) => q.question === i)?.column ?? -1),
  );
  const [problem, setProblem] = useState<string | null>(null);
  const columnCount = Math.max(preview.headers.length, ...preview.rows.map((r) => r.length));
  const headers = Array.from({ length: columnCount }, (_, i) => preview.headers[i] ?? '');

  async function submit() {
    if (!answerColumns.some((c) => c >= 0)) {
      setProblem('Choose the column of at least one question’s answers.');
      return;
    }
    setProblem(null);
    try {
      const imported = await importCsv.mutateAsync({
        assignmentId: assignment._id,
        submissionRole: 'teacher',
        type: assignment.type,
        csvLocation: draft.location,
        parsedCSV: {
          nameColumn,
          emailColumn,
          questions: answerColumns.flatMap((column, question) => (column >= 0 ? [{ question, column }] : [])),
        },
      });
      showToast({ type: 'success', message: `Imported ${imported} ${imported === 1 ? 'submission' : 'submissions'}` });
      onClose();
    } catch (error) {
      setProblem(errorMessage(error, 'Error reading CSV file'));
    }
  }

  return (
    <Dialog open onClose={importCsv.isPending ? undefined : onClose} maxWidth="md" fullWidth scroll="paper" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Import submissions from CSV</DialogTitle>
      <DialogContent dividers>
        <Typography color="text.secondary" sx={{ mb: 1.5, overflowWrap: 'anywhere' }}>
          {draft.fileName}: {preview.rowCount} {preview.rowCount === 1 ? 'row' : 'rows'}
          {preview.rows.length < preview.rowCount ? `, the first ${preview.rows.length} shown` : ''}.
        </Typography>
        <CsvPreviewTable headers={headers} rows={preview.rows} />
        <Typography variant="h6" component="h3" sx={{ mt: 3, mb: 1.5 }}>
          Which column holds what?
        </Typography>
        <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
          <ColumnSelect label="Student name" value={nameColumn} onChange={setNameColumn} headers={headers} />
          <ColumnSelect label="Student email" value={emailColumn} onChange={setEmailColumn} headers={headers} noneLabel="No email column" />
          {answerColumns.map((column, index) => (
            <ColumnSelect
              key={index}
              label={questions[index]?.trim() || `Question ${index + 1}`}
              value={column}
              onChange={(next) => setAnswerColumns((cols) => cols.map((c, i) => (i === index ? next : c)))}
              headers={headers}
              noneLabel="Not in this file"
            />
          ))}
        </Stack>
        {answerColumns.length === 0 && (
          <Alert severity="warning" sx={{ mt: 2 }}>
            This assignment has no questions yet, so there is nothing to map answers to.
          </Alert>
        )}
        {problem && (
          <Box sx={{ mt: 2 }}>
            <Alert severity="error">{problem}</Alert>
          </Box>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2, gap: 1, flexWrap: 'wrap' }}>
        <Button onClick={onClose} disabled={importCsv.isPending}>
          Cancel
        </Button>
        <Button variant="contained" onClick={() => void submit()} loading={importCsv.isPending} disabled={answerColumns.length === 0}>
          Import {preview.rowCount} {preview.rowCount === 1 ? 'submission' : 'submissions'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
