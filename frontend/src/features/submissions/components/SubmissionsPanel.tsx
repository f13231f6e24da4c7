import InboxOutlined from '@mui/icons-material/InboxOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useMemo, type ReactNode } from 'react';
import type { AssignmentQueryKey } from '../api/keys';
import { normalizeSubmissions } from '../api/normalize';
import type { SubmissionsAssignment } from '../api/types';
import { useFileUpload } from '../hooks/use-file-upload';
import { lazyComponent } from '../../../components/lazy-component';
import { CsvImportButton } from './CsvImportButton';
import { SubmissionsList, type SubmissionsListProps } from './SubmissionsList';
import { UploadDropZone } from './UploadDropZone';

/** An upload's progress (with MUI's LinearProgress) loads with the first upload: the page draws without it. */
const UploadProgressPanel = lazyComponent(() => import('./UploadProgressPanel').then((m) => m.UploadProgressPanel));
// What an upload set aside: loaded with the first upload that refuses or skips a file.
const RefusedAlert = lazyComponent(() => import('./UploadNotices').then((m) => m.RefusedAlert));
const DuplicatesAlert = lazyComponent(() => import('./UploadNotices').then((m) => m.DuplicatesAlert));

/** Props for {@link SubmissionsPanel}. */
export interface SubmissionsPanelProps {
  assignment: SubmissionsAssignment;
  /** The submissions as `db/assignment/get` lists them (read leniently). */
  submissions: unknown;
  /** How many submissions the class has (the table reads them a page at a time). */
  classSize?: number;
  /** The assignment's top-level questions, for mapping CSV columns (grade assignments). */
  questions?: string[];
  /**
   * The key of the query that lists the submissions (`db/assignment/get`, owned by the page);
   * it is refetched after every change here.
   */
  assignmentQueryKey: AssignmentQueryKey;
  /** More ways to add submissions, shown beside "Import CSV" (the page composes other features' buttons). */
  actions?: ReactNode;
  /** More buttons of the table's toolbar (other features', e.g. "Release"). */
  toolbar?: SubmissionsListProps['toolbar'];
  /** More about a row under its result (other features', e.g. the release's chip). */
  renderResultExtra?: SubmissionsListProps['renderResultExtra'];
}

function NoSubmissions() {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: 1, py: 3 }}>
      <Box
        aria-hidden="true"
        sx={{ width: 48, height: 48, borderRadius: '50%', display: 'grid', placeItems: 'center', bgcolor: 'rgba(23, 97, 107, 0.08)', color: 'primary.main' }}
      >
        <InboxOutlined />
      </Box>
      <Typography sx={{ fontWeight: 600 }}>No submissions yet</Typography>
      <Typography color="text.secondary" sx={{ maxWidth: 440 }}>
        Upload your students’ work above: each file becomes a submission, read and ready to grade.
      </Typography>
    </Box>
  );
}

/**
 * The submissions area of an assignment page: upload files (drop or pick), import a CSV (grade
 * assignments), follow uploads and reading, and manage the submissions table.
 */
export function SubmissionsPanel({
  assignment,
  submissions: raw,
  classSize = 0,
  questions = [],
  assignmentQueryKey,
  actions,
  toolbar,
  renderResultExtra,
}: SubmissionsPanelProps) {
  const headingId = useId();
  const submissions = useMemo(() => normalizeSubmissions(raw), [raw]);
  const upload = useFileUpload(assignment, assignmentQueryKey, submissions);
  // A large class arrives without its list (classSize says how many): its table reads it by page.
  const empty = submissions.length === 0 && classSize === 0;

  return (
    <Card component="section" aria-labelledby={headingId}>
      <CardContent sx={{ p: { xs: 2, sm: 3 }, '&:last-child': { pb: { xs: 2.5, sm: 3 } } }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1.5, mb: 2 }}>
          <Typography id={headingId} variant="h2" sx={{ fontSize: '1.25rem' }}>
            Submissions
          </Typography>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
            {actions}
            <CsvImportButton assignment={assignment} questions={questions} assignmentQueryKey={assignmentQueryKey} disabled={upload.running} />
          </Box>
        </Box>
        <Stack spacing={2}>
          <UploadDropZone onFiles={(files) => void upload.addFiles(files)} disabled={upload.running} />
          {upload.refused.length > 0 && <RefusedAlert refused={upload.refused} onClose={upload.clearRefused} />}
          {upload.duplicates.length + upload.copies.length > 0 && (
            <DuplicatesAlert files={upload.duplicates} copies={upload.copies} onAdd={upload.addDuplicates} onClose={upload.clearDuplicates} disabled={upload.running} />
          )}
          {upload.progress.phase !== 'idle' && <UploadProgressPanel progress={upload.progress} onRetrySave={upload.retrySave} onDismiss={upload.dismiss} />}
          {empty ? (
            <NoSubmissions />
          ) : (
            <Box>
              <SubmissionsList
                assignment={assignment}
                assignmentQueryKey={assignmentQueryKey}
                toolbar={toolbar}
                renderResultExtra={renderResultExtra}
              />
            </Box>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
