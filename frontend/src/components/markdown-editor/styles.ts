import type { SxProps, Theme } from '@mui/material/styles';

/**
 * ProseMirror's own rules (what Tiptap would inject in a <style> tag without the CSP nonce) and
 * the typography of the edited text, through the theme's styles (which carry the nonce). The
 * editing area is at least `minHeight` pixels high and scrolls past `maxHeight`.
 */
export function proseMirrorStyles(minHeight: number, maxHeight?: number | string): SxProps<Theme> {
  return (theme) => ({
    '& .ProseMirror': {
      minHeight,
      maxHeight,
      overflowY: maxHeight === undefined ? undefined : 'auto',
      position: 'relative',
      whiteSpace: 'pre-wrap',
      wordWrap: 'break-word',
      overflowWrap: 'anywhere',
      fontVariantLigatures: 'none',
      fontFeatureSettings: '"liga" 0',
      px: 2,
      py: 1.5,
      outline: 'none',
      lineHeight: 1.6,
      fontFamily: theme.typography.body1.fontFamily,
      fontSize: theme.typography.body1.fontSize,
    },
    '& .ProseMirror [contenteditable="false"]': { whiteSpace: 'normal' },
    '& .ProseMirror pre': { whiteSpace: 'pre-wrap' },
    '& .ProseMirror-hideselection *::selection': { background: 'transparent' },
    '& .ProseMirror-hideselection': { caretColor: 'transparent' },
    '& .ProseMirror-separator': { display: 'inline !important', border: 'none !important', margin: '0 !important' },
    '& img.ProseMirror-separator': { width: '1px !important', height: '1px !important' },
    '& .ProseMirror-gapcursor': { display: 'none', pointerEvents: 'none', position: 'absolute' },
    '& .ProseMirror-focused .ProseMirror-gapcursor': { display: 'block' },
    '& .ProseMirror-gapcursor::after': {
      content: '""',
      display: 'block',
      position: 'absolute',
      top: '-2px',
      width: '20px',
      borderTop: '1px solid black',
    },
    '& .ProseMirror h1, & .ProseMirror h2, & .ProseMirror h3, & .ProseMirror h4': {
      fontFamily: theme.typography.h1.fontFamily,
      lineHeight: 1.3,
      mt: 2,
      mb: 1,
    },
    '& .ProseMirror h1': { fontSize: '1.375rem' },
    '& .ProseMirror h2': { fontSize: '1.25rem' },
    '& .ProseMirror h3, & .ProseMirror h4': { fontSize: '1.0625rem' },
    '& .ProseMirror p': { my: 1 },
    '& .ProseMirror ul, & .ProseMirror ol': { pl: 3, my: 1 },
    '& .ProseMirror blockquote': { borderLeft: 3, borderColor: 'divider', pl: 1.5, ml: 0, color: 'text.secondary' },
    '& .ProseMirror code': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: '0.875em', bgcolor: 'action.hover', px: 0.5, borderRadius: '4px' },
    '& .ProseMirror pre code': { display: 'block', p: 1.5 },
    '& .ProseMirror a': { color: 'primary.main' },
    '& .ProseMirror .tableWrapper': { overflowX: 'auto', my: 1.5 },
    '& .ProseMirror table': { borderCollapse: 'collapse', tableLayout: 'fixed', width: '100%' },
    '& .ProseMirror th, & .ProseMirror td': { border: 1, borderColor: 'divider', px: 1, py: 0.5, verticalAlign: 'top', position: 'relative', minWidth: '3em' },
    '& .ProseMirror th p, & .ProseMirror td p': { my: 0 },
    '& .ProseMirror th': { bgcolor: 'action.hover', fontWeight: 600, textAlign: 'left' },
    '& .ProseMirror .selectedCell::after': { content: '""', position: 'absolute', inset: 0, bgcolor: 'action.selected', pointerEvents: 'none' },
    '& .ProseMirror .column-resize-handle': { position: 'absolute', right: '-2px', top: 0, bottom: 0, width: '4px', bgcolor: 'primary.light', pointerEvents: 'none' },
    '& .ProseMirror.resize-cursor': { cursor: 'col-resize' },
  });
}
