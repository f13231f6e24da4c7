import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { Tooltip } from '../../../../components/Tooltip';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import type { HighlighterInfo } from '../../lib/definition';
import type { FeedbackItem } from '../../lib/highlights';
import { HighlighterChip } from './HighlighterChip';

/** Props of {@link FeedbackItemList}. */
export interface FeedbackItemListProps {
  items: readonly FeedbackItem[];
  /**
   * Where each item (by id) starts in the plain text: how an edit names its highlight, which
   * stays right while other highlights are removed (see `highlightStarts`).
   */
  starts: readonly number[];
  /** The highlighter of each key used. */
  lookup: ReadonlyMap<string, HighlighterInfo>;
  readOnly?: boolean;
  /**
   * A comment as typed, to save once typing stops (null: back to the saved comment, nothing to
   * save), for the highlight starting at `start`.
   */
  onDraftComment?: (start: number, comment: string | null) => void;
  /** A comment field was left, Enter or "Save comment" pressed: save what is typed now. */
  onSaveNow?: () => void;
  /** Removes a highlight (its passage stays as plain text). */
  onDelete?: (start: number) => void;
}

type RowProps = Omit<FeedbackItemListProps, 'items' | 'lookup' | 'starts'> & {
  item: FeedbackItem;
  start: number;
  info: HighlighterInfo | undefined;
};

function ItemRow({ item, start, info, readOnly, onDraftComment, onSaveNow, onDelete }: RowProps) {
  const [editing, setEditing] = useState(false);
  /** The comment as typed, until the saved comment says the same (null: the saved comment). */
  const [typed, setTyped] = useState<string | null>(null);
  /** The saved comment when the pencil was clicked, for Cancel. */
  const [before, setBefore] = useState(item.comment);
  /** The pencil: closing the comment box (Enter, Escape, a button) gives it the focus back. */
  const pencil = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  useEffect(() => {
    if (editing || !refocus.current) return;
    refocus.current = false;
    pencil.current?.focus();
  }, [editing]);
  if (typed !== null && typed === item.comment) setTyped(null);
  const comment = typed ?? item.comment;
  const title = info?.title ?? item.type;
  const passage = item.text.length > 160 ? `${item.text.slice(0, 157)}…` : item.text;

  const type = (value: string) => {
    setTyped(value === item.comment ? null : value);
    onDraftComment?.(start, value === item.comment ? null : value);
  };
  const done = () => {
    onSaveNow?.();
    refocus.current = true;
    setEditing(false);
  };
  const cancel = () => {
    // Back to the comment as it was before the pencil, saved again if what was typed already was.
    if (before === item.comment) onDraftComment?.(start, null);
    else {
      onDraftComment?.(start, before);
      onSaveNow?.();
    }
    setTyped(before === item.comment ? null : before);
    refocus.current = true;
    setEditing(false);
  };

  return (
    <Box component="li" sx={{ py: 1.5, borderBottom: 1, borderColor: 'divider', '&:last-child': { borderBottom: 0 } }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
        <HighlighterChip color={info?.color ?? ''} label={title} />
        {!readOnly && !editing && (
          <Stack direction="row">
            <Tooltip title="Edit comment">
              <IconButton
                ref={pencil}
                size="small"
                aria-label={`Edit comment on “${passage}”`}
                onClick={() => {
                  setBefore(item.comment);
                  setEditing(true);
                }}
              >
                <EditOutlined fontSize="small" />
              </IconButton>
            </Tooltip>
            <Tooltip title="Delete highlight">
              <IconButton size="small" aria-label={`Delete highlight on “${passage}”`} onClick={() => onDelete?.(start)}>
                <DeleteOutlineRounded fontSize="small" />
              </IconButton>
            </Tooltip>
          </Stack>
        )}
      </Stack>
      {!editing ? (
        <Typography variant="body2" sx={{ mt: 0.75, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {comment || <Box component="span" sx={{ color: 'text.secondary' }}>No comment.</Box>}
        </Typography>
      ) : (
        <Box
          component="form"
          sx={{ mt: 1 }}
          onSubmit={(e) => {
            e.preventDefault();
            done();
          }}
        >
          <TextField
            label={`${title} comment`}
            value={comment}
            onChange={(e) => type(e.target.value)}
            // Saved as the teacher goes: once typing stops (the screen's timer), and at once when
            // the field is left or Enter is pressed (Shift+Enter starts a new line).
            onBlur={() => onSaveNow?.()}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                done();
              } else if (e.key === 'Escape' && !e.nativeEvent.isComposing) {
                // Escape is Cancel, here only: the review screen's own Escape does not fire too.
                e.preventDefault();
                e.stopPropagation();
                cancel();
              }
            }}
            helperText="Saved as you type. Shift+Enter for a new line, Escape to cancel."
            multiline
            minRows={2}
            fullWidth
            size="small"
            autoFocus
          />
          <Stack direction="row" spacing={1} sx={{ mt: 1, justifyContent: 'flex-end' }}>
            {/* Pressed with the mouse, the field keeps the focus: what was typed is not saved first. */}
            <Button size="small" onMouseDown={(e) => e.preventDefault()} onClick={cancel}>
              Cancel
            </Button>
            <Button size="small" variant="contained" type="submit">
              Save comment
            </Button>
          </Stack>
        </Box>
      )}
      <Typography
        variant="body2"
        color="text.secondary"
        sx={{ mt: 0.5, fontStyle: 'italic', overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}
      >
        “{passage}”
      </Typography>
    </Box>
  );
}

/** The highlights of a result as a list: each with its highlighter, comment and passage; editable for teachers. */
export function FeedbackItemList({ items, starts, lookup, ...rest }: FeedbackItemListProps) {
  if (items.length === 0) {
    return <Typography color="text.secondary">No highlights.</Typography>;
  }
  return (
    <Box component="ul" aria-label="Feedback items" sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {items.map((item) => {
        const start = starts[item.id] ?? -1 - item.id;
        // Keyed by where the passage starts: a row keeps what is typed in it while another is removed.
        return <ItemRow key={`${start}:${item.type}`} item={item} start={start} info={lookup.get(item.type)} {...rest} />;
      })}
    </Box>
  );
}
