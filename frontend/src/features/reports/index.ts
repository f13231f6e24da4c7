/**
 * Printable feedback reports (issue 21): one student's report as a PDF from the review screen, and
 * a class's reports (a ZIP of PDFs and one combined PDF to print) made in the background from the
 * submissions toolbar. The app composes {@link DownloadReportButton} into the review header and
 * {@link PrintReportsButton} into the submissions toolbar.
 */
export { DownloadReportButton, type DownloadReportButtonProps } from './components/DownloadReportButton';
export { PrintReportsButton, type PrintReportsButtonProps } from './components/PrintReportsButton';
export { PrintReportsDialog, type PrintReportsDialogProps } from './components/PrintReportsDialog';
export { reportKeys, type ReportRun } from './api/reports';
