/** The first line of the system message that holds the text of files read in a chat. */
export const FILES_READ_PREFIX = 'Files read in this chat: ';

/** The assistant's message after files were read (spec: chat file read). */
export function filesReadMessage(names: string[]): string {
  return `Files ${names.join(', ')} read successfully! How can I help?`;
}

/** The assistant's message when files could not be read (spec: chat file read). */
export const FILES_READ_ERROR = 'Error reading files';

/**
 * The system message holding the files' text: a first line naming them, then each file's text
 * under its name, or "[no text found in {name}]" for a file without text.
 */
export function filesReadSystemMessage(names: string[], texts: string[]): string {
  const sections = names.map((name, i) => {
    const text = texts[i] ?? '';
    return `Attached file "${name}":\n${text.trim() === '' ? `[no text found in ${name}]` : text}`;
  });
  return [`${FILES_READ_PREFIX}${names.join(', ')}`, ...sections].join('\n\n');
}

/** The label of a system message's chip: the names of the files it read, when it says them. */
export function systemMessageLabel(content: string): string {
  const firstLine = content.split('\n', 1)[0];
  if (firstLine.startsWith(FILES_READ_PREFIX)) return `File read: ${firstLine.slice(FILES_READ_PREFIX.length)}`;
  return 'File read';
}
