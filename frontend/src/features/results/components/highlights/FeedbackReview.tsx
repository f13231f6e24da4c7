import AddRounded from '@mui/icons-material/AddRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Popper from '@mui/material/Popper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMemo, useRef, useState } from 'react';
import { useAutosave } from '../../hooks/use-autosave';
import { highlighterLookup, type ResultReviewProps } from '../../lib/definition';
import { editHighlightsWith, highlightStarts, parseHighlights, type AddedHighlight, type FeedbackItem } from '../../lib/highlights';
import { useSaveResult } from '../../lib/use-save-result';
import type { ResultChanges } from '../../api/update-function-result';
import { SaveStatus } from '../review/SaveStatus';
import { OverallText } from './OverallText';
import { FeedbackItemList } from './FeedbackItemList';
import { HighlightedText } from './HighlightedText';
import { AddHighlightDialog, type AddHighlightStart } from './AddHighlightDialog';
import { useTextSelection } from './use-text-selection';

function Heading({ children }: { children: string }) {
  return (
    <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
      {children}
    </Typography>
  );
}

/**
 * A teacher's change of a feedback result: a highlight added, a highlight's comment or its
 * removal (the highlight named by where it starts in the text), or the overall feedback.
 */
type FeedbackChange =
  | { kind: 'add'; added: AddedHighlight }
  | { kind: 'comment'; start: number; comment: string }
  | { kind: 'delete'; start: number }
  | { kind: 'overall'; feedback: string };

/** What a batch of changes makes of a result's fields: additions first, then comments and removals. */
function changesOf(batch: Iterable<FeedbackChange>, base: { highlightedText: string }): ResultChanges {
  const added: AddedHighlight[] = [];
  const comments = new Map<number, string>();
  const removed = new Set<number>();
  let feedback: string | undefined;
  for (const change of batch) {
    if (change.kind === 'add') added.push(change.added);
    else if (change.kind === 'comment') comments.set(change.start, change.comment);
    else if (change.kind === 'delete') removed.add(change.start);
    else feedback = change.feedback;
  }
  const highlightsChanged = added.length > 0 || comments.size > 0 || removed.size > 0;
  return {
    ...(highlightsChanged ? { highlightedText: editHighlightsWith(base.highlightedText, added, comments, removed) } : {}),
    ...(feedback !== undefined ? { feedback } : {}),
  };
}

/**
 * A feedback result: the student's text with the AI's highlighted passages beside the list of
 * feedback items, and the overall feedback. A teacher can add a highlight (select words in the
 * text, or type them, with "Add highlight"), edit a comment, delete a highlight (and undo that) or
 * edit the overall feedback; each is saved with `functionResult/update` as they go (once typing
 * stops, when a field is left or Enter pressed, when the screen or the page is left; a deletion
 * at once), with one save status for all of them.
 */
export function FeedbackReview({ result, fn, readOnly = false, onChanged }: ResultReviewProps) {
  const { current, save } = useSaveResult(result, fn._id, onChanged);
  const parsed = useMemo(() => parseHighlights(current.highlightedText), [current.highlightedText]);
  const starts = useMemo(() => highlightStarts(parsed), [parsed]);
  const lookup = useMemo(() => highlighterLookup(fn.highlights, parsed.items.map((i) => i.type)), [fn.highlights, parsed.items]);
  const dropped = current.droppedHighlights ?? 0;

  // Each save applies its changes to the result as the last save left it, so a comment typed
  // meanwhile and a highlight removed meanwhile both stay.
  const autosave = useAutosave<FeedbackChange>((changes, { quiet, keepalive }) =>
    save((base) => changesOf(changes.values(), base), { quiet, keepalive }),
  );

  const onDraftComment = (start: number, comment: string | null) => {
    if (comment === null) autosave.discard(`comment ${start}`);
    else autosave.change(`comment ${start}`, { kind: 'comment', start, comment });
  };
  /** The highlight deleted last, until it is put back or another change is made. */
  const [deleted, setDeleted] = useState<{ item: FeedbackItem; start: number } | null>(null);
  const [adding, setAdding] = useState<AddHighlightStart | null>(null);
  const textRef = useRef<HTMLDivElement>(null);
  const canAdd = !readOnly && (fn.highlights?.length ?? 0) > 0 && current.highlightedText.trim() !== '';
  const selection = useTextSelection(textRef, canAdd && adding === null);

  const add = (added: AddedHighlight) => {
    autosave.discard(`delete ${added.start}`);
    autosave.change(`add ${added.start}`, { kind: 'add', added });
    autosave.flush();
  };
  const onAdd = (added: AddedHighlight) => {
    setAdding(null);
    setDeleted(null);
    document.getSelection()?.removeAllRanges();
    add(added);
  };
  const onDelete = (start: number) => {
    const id = starts.indexOf(start);
    const item = parsed.items[id];
    if (item) setDeleted({ item, start });
    autosave.discard(`comment ${start}`);
    autosave.change(`delete ${start}`, { kind: 'delete', start });
    autosave.flush();
  };
  const undoDelete = () => {
    if (!deleted) return;
    const { item, start } = deleted;
    setDeleted(null);
    add({ start, end: start + item.text.length, key: item.type, comment: item.comment });
  };
  const onDraftOverall = (feedback: string | null) => {
    if (feedback === null) autosave.discard('overall');
    else autosave.change('overall', { kind: 'overall', feedback });
  };

  return (
    <Stack spacing={3}>
      <Box
        sx={{
          display: 'grid',
          gap: 3,
          alignItems: 'start',
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 3fr) minmax(0, 2fr)' },
        }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Box sx={{ mb: 1 }}>
            <Heading>Submission</Heading>
          </Box>
          <Box ref={textRef}>
            <HighlightedText highlightedText={current.highlightedText} highlighters={fn.highlights} label="Submission with highlights" />
          </Box>
          {/* Words selected in the text: a button beside them to highlight them. */}
          <Popper
            open={selection !== null}
            anchorEl={selection ? { getBoundingClientRect: selection.rect } : null}
            placement="bottom-start"
            modifiers={[{ name: 'preventOverflow', options: { boundary: 'viewport', altAxis: true, padding: 8 } }]}
            sx={{ zIndex: 'tooltip' }}
          >
            <Paper elevation={6} sx={{ mt: 0.5 }}>
              <Button
                size="small"
                startIcon={<AddRounded />}
                // Pressed with the mouse, the selection stays: the dialog opens with its words.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => selection && setAdding({ passage: selection.passage, near: selection.start })}
              >
                Highlight these words
              </Button>
            </Paper>
          </Popper>
        </Box>
        <Box component="section" aria-label="Feedback" sx={{ minWidth: 0 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mb: 1 }}>
            <Heading>{`Feedback (${parsed.items.length})`}</Heading>
            {!readOnly && <SaveStatus status={autosave.status} idle="Changes save as you go" onRetry={() => autosave.flush()} />}
          </Box>
          {canAdd && (
            <Button
              size="small"
              variant="outlined"
              startIcon={<AddRounded />}
              sx={{ mb: 1 }}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => setAdding(selection ? { passage: selection.passage, near: selection.start } : { passage: '' })}
            >
              Add highlight
            </Button>
          )}
          {deleted && (
            <Alert
              severity="info"
              variant="outlined"
              role="status"
              sx={{ mb: 1 }}
              action={
                <Button color="inherit" size="small" onClick={undoDelete}>
                  Undo
                </Button>
              }
            >
              {`Highlight deleted on “${deleted.item.text.length > 60 ? `${deleted.item.text.slice(0, 57)}…` : deleted.item.text}”.`}
            </Alert>
          )}
          {!readOnly && dropped > 0 && (
            <Alert severity="info" variant="outlined" sx={{ mb: 1 }}>
              {dropped === 1
                ? '1 highlight from the AI was left out: its passage was not in the text or its highlighter is not on this assignment.'
                : `${dropped} highlights from the AI were left out: their passages were not in the text or their highlighters are not on this assignment.`}
            </Alert>
          )}
          <FeedbackItemList
            items={parsed.items}
            starts={starts}
            lookup={lookup}
            readOnly={readOnly}
            onDraftComment={onDraftComment}
            onSaveNow={() => autosave.flush()}
            onDelete={onDelete}
          />
        </Box>
      </Box>
      {canAdd && (
        <AddHighlightDialog start={adding} parsed={parsed} highlighters={fn.highlights ?? []} onAdd={onAdd} onClose={() => setAdding(null)} />
      )}
      <OverallText label="Overall feedback" value={current.feedback} readOnly={readOnly} onDraft={onDraftOverall} onSaveNow={() => autosave.flush()} />
    </Stack>
  );
}
