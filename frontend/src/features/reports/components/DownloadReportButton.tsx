import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { downloadStudentReport, saveBlob } from '../api/reports';

/** Props for {@link DownloadReportButton}. */
export interface DownloadReportButtonProps {
  assignmentId: string;
  submissionId: string;
}

/** "Download report (PDF)" on the review screen: one student's printable feedback report. */
export function DownloadReportButton({ assignmentId, submissionId }: DownloadReportButtonProps) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setPending(true);
    setError(null);
    try {
      const { blob, fileName } = await downloadStudentReport(assignmentId, submissionId);
      saveBlob(blob, fileName);
    } catch (e) {
      setError(errorMessage(e, "We couldn't make the report. Please try again."));
    } finally {
      setPending(false);
    }
  };
  return (
    <Box sx={{ display: 'inline-flex', flexDirection: 'column', gap: 1 }}>
      <Button variant="outlined" size="small" startIcon={<PictureAsPdfOutlined />} loading={pending} onClick={() => void download()}>
        Download report (PDF)
      </Button>
      {error && (
        <Alert severity="error" onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
    </Box>
  );
}
