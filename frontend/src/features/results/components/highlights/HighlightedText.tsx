import Box from '@mui/material/Box';
import ClickAwayListener from '@mui/material/ClickAwayListener';
import Paper from '@mui/material/Paper';
import Popper from '@mui/material/Popper';
import Typography from '@mui/material/Typography';
import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { highlightPaint } from '../../../../lib/highlight-paint';
import { highlighterLookup, type HighlighterInfo } from '../../lib/definition';
import { parseHighlights, type HighlightSpan } from '../../lib/highlights';
import { HighlighterChip } from './HighlighterChip';

/** Shown instead of the text when a result has no highlighted text (spec §2). */
export const TEXT_NOT_PROCESSED = 'Text not processed...';

/** Props of {@link HighlightedText}. */
export interface HighlightedTextProps {
  /** The result's highlightedText (tags as `internal/highlight` writes them). */
  highlightedText: string;
  /** The assignment's highlighters; keys it does not define get a title and colour of their own. */
  highlighters?: readonly HighlighterInfo[];
  /** Accessible name of the text region. */
  label?: string;
}

/** Which highlight's comment is open, where, and whether a click pinned it open. */
interface Open {
  id: number;
  anchor: HTMLElement;
  pinned: boolean;
}

/**
 * The student's text with each highlighted passage painted in its highlighter's colours (shade
 * 300 behind, shade 900 text). A passage is a focusable button: hovering, focusing or clicking it
 * opens a popover with the highlighter's name and the comment; Escape or clicking elsewhere closes
 * a pinned one. Everything is rendered as React text: nothing in the student's words or the
 * comments is read as HTML.
 */
export function HighlightedText({ highlightedText, highlighters, label = 'Highlighted text' }: HighlightedTextProps) {
  const parsed = useMemo(() => parseHighlights(highlightedText), [highlightedText]);
  const lookup = useMemo(
    () => highlighterLookup(highlighters, parsed.items.map((i) => i.type)),
    [highlighters, parsed.items],
  );
  const [open, setOpen] = useState<Open | null>(null);
  const popoverId = useId();

  if (highlightedText.trim() === '') {
    return <Typography color="text.secondary">{TEXT_NOT_PROCESSED}</Typography>;
  }

  const item = open ? parsed.items[open.id] : undefined;
  const show = (id: number, anchor: HTMLElement, pinned = false) => setOpen({ id, anchor, pinned });
  const hide = (id: number) => setOpen((o) => (o && o.id === id && !o.pinned ? null : o));
  const onKeyDown = (event: KeyboardEvent<HTMLElement>, span: HighlightSpan) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      show(span.id, event.currentTarget, true);
    } else if (event.key === 'Escape') {
      setOpen(null);
    }
  };

  return (
    <Box
      role="region"
      aria-label={label}
      sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', lineHeight: 1.9, fontSize: '1rem' }}
    >
      {parsed.spans.map((span, i) => {
        if (span.key === null) return <span key={`t${i}`}>{span.text}</span>;
        const info = lookup.get(span.key);
        const paint = highlightPaint(info?.color ?? '');
        const comment = parsed.items[span.id]?.comment ?? '';
        const isOpen = open?.id === span.id;
        return (
          <Box
            key={`h${span.id}`}
            component="span"
            role="button"
            tabIndex={0}
            // The name carries the highlighted words too: a speech user says what they see (WCAG 2.5.3).
            aria-label={`${info?.title ?? span.key}: ${comment} — “${span.text}”`}
            aria-expanded={isOpen}
            aria-describedby={isOpen ? popoverId : undefined}
            onMouseEnter={(e) => show(span.id, e.currentTarget, open?.pinned && open.id === span.id)}
            onMouseLeave={() => hide(span.id)}
            onFocus={(e) => show(span.id, e.currentTarget)}
            onBlur={() => hide(span.id)}
            onClick={(e) => show(span.id, e.currentTarget, !(isOpen && open?.pinned))}
            onKeyDown={(e) => onKeyDown(e, span)}
            sx={{
              bgcolor: paint.background,
              color: paint.text,
              borderRadius: '3px',
              px: '2px',
              boxDecorationBreak: 'clone',
              WebkitBoxDecorationBreak: 'clone',
              cursor: 'pointer',
              outline: isOpen ? `2px solid ${paint.text}` : 'none',
              outlineOffset: 1,
              '&:focus-visible': { outline: `2px solid ${paint.text}` },
            }}
          >
            {span.text}
          </Box>
        );
      })}
      {/* On a phone the comment stays on the screen: kept inside the viewport, never wider than it. */}
      <Popper
        id={popoverId}
        open={Boolean(open && item)}
        anchorEl={open?.anchor}
        placement="bottom-start"
        modifiers={[{ name: 'preventOverflow', options: { boundary: 'viewport', altAxis: true, padding: 8 } }]}
        sx={{ zIndex: 'tooltip' }}
      >
        <ClickAwayListener onClickAway={(e) => setOpen((o) => (o && o.anchor.contains(e.target as Node) ? o : null))}>
          <Paper elevation={6} sx={{ p: 1.5, maxWidth: 'min(320px, calc(100vw - 16px))', mt: 0.5, whiteSpace: 'normal' }}>
            {item && open && (
              <>
                <HighlighterChip color={lookup.get(item.type)?.color ?? ''} label={lookup.get(item.type)?.title ?? item.type} />
                <Typography variant="body2" sx={{ mt: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {item.comment || 'No comment.'}
                </Typography>
              </>
            )}
          </Paper>
        </ClickAwayListener>
      </Popper>
    </Box>
  );
}
