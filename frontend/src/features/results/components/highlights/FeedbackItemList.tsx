import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { Tooltip } from '../../../../components/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { HighlighterInfo } from '../../lib/definition';
import type { FeedbackItem } from '../../lib/highlights';
import { HighlighterChip } from './HighlighterChip';

/** Props of {@link FeedbackItemList}. */
export interface FeedbackItemListProps {
  items: readonly FeedbackItem[];
  /** The highlighter of each key used. */
  lookup: ReadonlyMap<string, HighlighterInfo>;
  readOnly?: boolean;
  /** True while a save is under way: the actions wait. */
  busy?: boolean;
  /** Saves a new comment; resolves true when saved. */
  onEditComment?: (id: number, comment: string) => Promise<boolean>;
  /** Removes a highlight (its passage stays as plain text). */
  onDelete?: (id: number) => void;
}

function ItemRow({ item, info, readOnly, busy, onEditComment, onDelete }: Omit<FeedbackItemListProps, 'items' | 'lookup'> & {
  item: FeedbackItem;
  info: HighlighterInfo | undefined;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const title = info?.title ?? item.type;
  const passage = item.text.length > 160 ? `${item.text.slice(0, 157)}…` : item.text;

  return (
    <Box component="li" sx={{ py: 1.5, borderBottom: 1, borderColor: 'divider', '&:last-child': { borderBottom: 0 } }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
        <HighlighterChip color={info?.color ?? ''} label={title} />
        {!readOnly && draft === null && (
          <Stack direction="row">
            <Tooltip title="Edit comment">
              <IconButton size="small" aria-label={`Edit comment on “${passage}”`} disabled={busy} onClick={() => setDraft(item.comment)}>
                <EditOutlined fontSize="small" />
              </IconButton>
            </Tooltip>
            <Tooltip title="Delete highlight">
              <IconButton size="small" aria-label={`Delete highlight on “${passage}”`} disabled={busy} onClick={() => onDelete?.(item.id)}>
                <DeleteOutlineRounded fontSize="small" />
              </IconButton>
            </Tooltip>
          </Stack>
        )}
      </Stack>
      {draft === null ? (
        <Typography variant="body2" sx={{ mt: 0.75, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {item.comment || <Box component="span" sx={{ color: 'text.secondary' }}>No comment.</Box>}
        </Typography>
      ) : (
        <Box
          component="form"
          sx={{ mt: 1 }}
          onSubmit={(e) => {
            e.preventDefault();
            void onEditComment?.(item.id, draft).then((ok) => ok && setDraft(null));
          }}
        >
          <TextField
            label={`${title} comment`}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            multiline
            minRows={2}
            fullWidth
            size="small"
            autoFocus
          />
          <Stack direction="row" spacing={1} sx={{ mt: 1, justifyContent: 'flex-end' }}>
            <Button size="small" onClick={() => setDraft(null)} disabled={busy}>
              Cancel
            </Button>
            <Button size="small" variant="contained" type="submit" loading={busy}>
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
export function FeedbackItemList({ items, lookup, ...rest }: FeedbackItemListProps) {
  if (items.length === 0) {
    return <Typography color="text.secondary">No highlights.</Typography>;
  }
  return (
    <Box component="ul" aria-label="Feedback items" sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {items.map((item) => (
        <ItemRow key={`${item.id}:${item.type}:${item.text}`} item={item} info={lookup.get(item.type)} {...rest} />
      ))}
    </Box>
  );
}
