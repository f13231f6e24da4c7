/**
 * Exporting an assignment's results as a spreadsheet: the {@link ExportMenu} of the submissions
 * toolbar ("Export" → CSV or Excel, optionally with the feedback text, of all or the selected rows).
 */
export { ExportMenu, type ExportMenuProps } from './components/ExportMenu';
export { exportResults, fileNameFrom, type ExportFile, type ExportFormat, type ExportRequest } from './api/export-results';
