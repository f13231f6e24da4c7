/**
 * What uploading submissions needs beyond the page: signing, the PUT with its progress, and the
 * files' hashes. The assignment page loads it with the first upload or CSV import
 * ({@link loadUploader}), so its first load does not carry it.
 */
export { fileSha256 } from '../../../lib/file-hash';
export { uploadFile } from '../../../lib/upload-file';
export { requestUpload } from '../api/request-upload';
