import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { parseMarkdown, type Inline } from '../../lib/markdown';

function Runs({ runs }: { runs: Inline[] }) {
  return runs.map((run, i) => {
    if (run.type === 'strong') return <strong key={i}>{run.text}</strong>;
    if (run.type === 'em') return <em key={i}>{run.text}</em>;
    if (run.type === 'code')
      return (
        <Box key={i} component="code" sx={{ fontFamily: 'monospace', fontSize: '0.9em', bgcolor: 'action.hover', px: 0.5, borderRadius: '4px' }}>
          {run.text}
        </Box>
      );
    return <span key={i}>{run.text}</span>;
  });
}

/**
 * Feedback written in a small Markdown subset (headings, lists, bold, italic, code), rendered as
 * React elements and text only: HTML in the feedback is shown as typed, never interpreted.
 */
export function MarkdownText({ source }: { source: string }) {
  const blocks = useMemo(() => parseMarkdown(source), [source]);
  return (
    <Box sx={{ overflowWrap: 'anywhere', '& > :first-of-type': { mt: 0 }, '& > :last-child': { mb: 0 } }}>
      {blocks.map((block, i) => {
        switch (block.type) {
          case 'heading':
            return (
              <Typography key={i} component={`h${Math.min(6, block.level + 2)}` as 'h3'} variant="subtitle1" sx={{ fontWeight: 700, mt: 2, mb: 0.5 }}>
                <Runs runs={block.inline} />
              </Typography>
            );
          case 'list':
            return (
              <Box key={i} component={block.ordered ? 'ol' : 'ul'} sx={{ pl: 3, my: 1 }}>
                {block.items.map((item, j) => (
                  <Typography key={j} component="li" sx={{ mb: 0.5 }}>
                    <Runs runs={item} />
                  </Typography>
                ))}
              </Box>
            );
          case 'code':
            return (
              <Box key={i} component="pre" sx={{ fontFamily: 'monospace', fontSize: '0.875rem', bgcolor: 'action.hover', p: 1.5, borderRadius: '8px', overflowX: 'auto', my: 1 }}>
                {block.text}
              </Box>
            );
          default:
            return (
              <Typography key={i} sx={{ whiteSpace: 'pre-wrap', my: 1 }}>
                <Runs runs={block.inline} />
              </Typography>
            );
        }
      })}
    </Box>
  );
}
