import Box from '@mui/material/Box';
import { lazy, Suspense } from 'react';
import { loadChunk, registerLoader } from '../../../lib/lazy-page';
import type { MarkdownBody } from './MarkdownBody';

let loading: Promise<{ default: typeof MarkdownBody }> | undefined;
const loadBody = () => (loading ??= loadChunk(() => import('./MarkdownBody')).then((m) => ({ default: m.MarkdownBody })));
registerLoader(loadBody);
const Body = lazy(loadBody);

/**
 * Renders markdown written by the teacher or the model (GitHub flavour: tables, task lists,
 * strikethrough). Raw HTML is dropped, never rendered; links open in a new tab without access to
 * this page; images from other sites are not loaded. The renderer loads from its own chunk the
 * first time markdown is drawn, so the chat's first load does not wait for it; until then the text
 * shows as it is (plain text, escaped by React).
 */
export function Markdown({ children }: { children: string }) {
  return (
    <Box
      className="markdown"
      sx={{
        minWidth: 0,
        overflowWrap: 'anywhere',
        '& > :first-of-type': { mt: 0 },
        '& > :last-child': { mb: 0 },
        '& p': { my: 1 },
        '& h1, & h2, & h3, & h4': { fontFamily: 'inherit', lineHeight: 1.3, mt: 2, mb: 1 },
        '& h1': { fontSize: '1.4rem' },
        '& h2': { fontSize: '1.2rem' },
        '& h3, & h4': { fontSize: '1.05rem' },
        '& ul, & ol': { pl: 3, my: 1 },
        '& pre': { overflowX: 'auto', p: 1.5, borderRadius: 1, bgcolor: 'rgba(0,0,0,0.05)', maxWidth: '100%' },
        '& code': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: '0.875em' },
        '& table': { borderCollapse: 'collapse', my: 1 },
        '& th, & td': { border: 1, borderColor: 'divider', px: 1, py: 0.5, textAlign: 'left', verticalAlign: 'top' },
        '& img': { maxWidth: '100%', height: 'auto' },
        '& blockquote': { m: 0, my: 1, pl: 2, borderLeft: 3, borderColor: 'divider', color: 'text.secondary' },
        '& a': { color: 'primary.main' },
      }}
    >
      <Suspense fallback={<Box sx={{ whiteSpace: 'pre-wrap' }}>{children}</Box>}>
        <Body>{children}</Body>
      </Suspense>
    </Box>
  );
}
