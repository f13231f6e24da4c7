/** Loads the upload code (./uploader) once, when a teacher first uploads or imports a CSV. */
export const loadUploader = () => import('./uploader');
