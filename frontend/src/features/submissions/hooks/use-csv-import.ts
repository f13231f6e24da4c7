import { useCallback, useState } from 'react';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { isCsvFile, sanitizeFileName, submissionsFolder } from '../../../lib/submission-files';
import { UploadError } from '../../../lib/upload-error';
import { usePreviewCsv } from '../api/preview-csv';
import { loadUploader } from '../lib/load-uploader';
import type { CsvPreview, SubmissionsAssignment } from '../api/types';
import { useBeforeUnload } from '../../../lib/use-before-unload';

/** The spec's message for a file that is not a CSV (§5). */
export const NOT_CSV_MESSAGE = 'Uploaded file is not a CSV file.';
/** The spec's message when a CSV cannot be read (§8). */
export const CSV_READ_ERROR = 'Error reading CSV file';

/** A CSV uploaded and read, waiting for the teacher to map its columns. */
export interface CsvDraft {
  fileName: string;
  location: string;
  preview: CsvPreview;
}

/**
 * The first half of a CSV import: checks the picked file is a CSV, uploads it to the assignment's
 * submissions folder and asks the server to read its first rows and suggest a mapping. Failures
 * are toasted with the server's message.
 */
export function useCsvImport(assignment: SubmissionsAssignment) {
  const { showToast } = useToast();
  const preview = usePreviewCsv();
  const [uploading, setUploading] = useState(false);
  const [draft, setDraft] = useState<CsvDraft | null>(null);
  const busy = uploading || preview.isPending;
  useBeforeUnload(uploading);

  const pick = useCallback(
    async (file: File) => {
      if (!isCsvFile(file)) {
        showToast({ type: 'error', message: NOT_CSV_MESSAGE });
        return;
      }
      setUploading(true);
      let location: string;
      try {
        const { requestUpload, uploadFile } = await loadUploader();
        const signed = await requestUpload({
          fileName: submissionsFolder(assignment._id) + sanitizeFileName(file.name),
          fileType: 'text/csv',
          fileSize: file.size,
        });
        await uploadFile(signed.signedUrl, file, 'text/csv');
        location = signed.location;
      } catch (error) {
        console.warn(`Upload of ${file.name} failed`, error);
        const message = error instanceof UploadError ? error.message : errorMessage(error, 'The CSV file could not be uploaded. Please try again.');
        showToast({ type: 'error', message });
        return;
      } finally {
        setUploading(false);
      }
      try {
        const result = await preview.mutateAsync({ assignmentId: assignment._id, csvLocation: location });
        setDraft({ fileName: file.name, location, preview: result });
      } catch (error) {
        showToast({ type: 'error', message: errorMessage(error, CSV_READ_ERROR) });
      }
    },
    [assignment._id, preview, showToast],
  );

  return { busy, draft, pick, close: useCallback(() => setDraft(null), []) };
}
