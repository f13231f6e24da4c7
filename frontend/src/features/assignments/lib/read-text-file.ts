/** Largest assignment sheet read in the browser. */
export const MAX_SHEET_BYTES = 1024 * 1024;

/** True for the files the browser can read as plain text: .txt and .md. */
export function isReadableTextFile(file: File): boolean {
  return /\.(txt|md|markdown)$/i.test(file.name) || file.type === 'text/plain' || file.type === 'text/markdown';
}

/** Reads a text file in the browser with FileReader. */
export function readTextFile(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error(`Could not read ${file.name}`));
    reader.readAsText(file);
  });
}
