import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { lazy, Suspense } from 'react';

/** Props of {@link MarkdownEditor}. */
export interface MarkdownEditorProps {
  /** The Markdown edited. */
  value: string;
  /** Called with the new Markdown after each change the teacher makes. */
  onChange: (markdown: string) => void;
  /** The editor's accessible name ("Edit the document"). */
  label: string;
  /** A visible heading above the toolbar (as a level-3 heading), when the page has none. */
  title?: string;
  /** Least height of the editing area, in pixels. */
  minHeight?: number;
  /** Most height before the editing area scrolls (a number of pixels or a CSS length). */
  maxHeight?: number | string;
  autoFocus?: boolean;
}

// The editor (Tiptap, ProseMirror and a Markdown parser) loads only when a teacher edits, so the
// first page load does not carry it.
const RichMarkdownEditor = lazy(() => import('./markdown-editor/RichMarkdownEditor'));

/**
 * A rich-text editor for Markdown: bold, italic, headings, lists, quotes, links and tables show as
 * formatted text, and the value read and written is Markdown. HTML in the Markdown is never
 * parsed: it stays visible text. Shared by the chat's document and the prompt feedback review.
 */
export function MarkdownEditor(props: MarkdownEditorProps) {
  return (
    <Suspense
      fallback={
        <Box
          role="status"
          sx={{ display: 'flex', alignItems: 'center', gap: 1, minHeight: props.minHeight ?? 240, px: 2, color: 'text.secondary', border: 1, borderColor: 'divider', borderRadius: '8px' }}
        >
          <CircularProgress size={18} aria-hidden="true" />
          Opening the editor…
        </Box>
      }
    >
      <RichMarkdownEditor {...props} />
    </Suspense>
  );
}
