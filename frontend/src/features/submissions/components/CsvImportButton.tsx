import TableChartOutlined from '@mui/icons-material/TableChartOutlined';
import Button from '@mui/material/Button';
import { useRef } from 'react';
import { lazyComponent } from '../../../components/lazy-component';
import { DisabledWithReason } from '../../../components/DisabledWithReason';
import { assignmentTypeInfo } from '../../../lib/assignment-type';
import type { AssignmentQueryKey } from '../api/keys';
import type { SubmissionsAssignment } from '../api/types';
import { useCsvImport } from '../hooks/use-csv-import';

// Loads when first drawn: the page's first load does not carry it (docs/performance.md, "First load").
const CsvMappingDialog = lazyComponent(() => import('./CsvMappingDialog').then((m) => m.CsvMappingDialog));

/** The spec's message for CSV on an assignment that is not graded (§5). */
export const CSV_UNSUPPORTED_MESSAGE = 'This assignment type does not support CSV uploads';

/** Props for {@link CsvImportButton}. */
export interface CsvImportButtonProps {
  assignment: SubmissionsAssignment;
  /** The top-level questions of the assignment, by index, to map CSV columns to. */
  questions: string[];
  assignmentQueryKey: AssignmentQueryKey;
  disabled?: boolean;
}

/**
 * "Import CSV" for the types that take it (grade): pick a .csv, which is uploaded and read, then map its
 * columns in a dialog. Other types show the button disabled with the reason in a tooltip.
 */
export function CsvImportButton({ assignment, questions, assignmentQueryKey, disabled = false }: CsvImportButtonProps) {
  const input = useRef<HTMLInputElement>(null);
  const csv = useCsvImport(assignment);

  if (!assignmentTypeInfo(assignment.type)?.csvImport) {
    return (
      <DisabledWithReason reason={CSV_UNSUPPORTED_MESSAGE} startIcon={<TableChartOutlined />}>
        Import CSV
      </DisabledWithReason>
    );
  }

  return (
    <>
      <Button
        variant="outlined"
        startIcon={<TableChartOutlined />}
        loading={csv.busy}
        loadingPosition="start"
        disabled={disabled}
        onClick={() => input.current?.click()}
      >
        Import CSV
      </Button>
      <input
        ref={input}
        type="file"
        accept=".csv,text/csv"
        hidden
        aria-label="Choose a CSV file"
        data-testid="csv-file-input"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void csv.pick(file);
        }}
      />
      {csv.draft && (
        <CsvMappingDialog
          key={csv.draft.location}
          assignment={assignment}
          draft={csv.draft}
          questions={questions}
          assignmentQueryKey={assignmentQueryKey}
          onClose={csv.close}
        />
      )}
    </>
  );
}
