import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { useAutosave } from '../../hooks/use-autosave';
import { highlighterLookup, type ResultReviewProps } from '../../lib/definition';
import { editHighlights, highlightStarts, parseHighlights } from '../../lib/highlights';
import { useSaveResult } from '../../lib/use-save-result';
import type { ResultChanges } from '../../api/update-function-result';
import { SaveStatus } from '../review/SaveStatus';
import { OverallText } from './OverallText';
import { FeedbackItemList } from './FeedbackItemList';
import { HighlightedText } from './HighlightedText';

function Heading({ children }: { children: string }) {
  return (
    <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
      {children}
    </Typography>
  );
}

/**
 * A teacher's change of a feedback result: a highlight's comment or its removal (the highlight
 * named by where it starts in the text), or the overall feedback.
 */
type FeedbackChange = { kind: 'comment'; start: number; comment: string } | { kind: 'delete'; start: number } | { kind: 'overall'; feedback: string };

/** What a batch of changes makes of a result's fields. */
function changesOf(batch: Iterable<FeedbackChange>, base: { highlightedText: string }): ResultChanges {
  const comments = new Map<number, string>();
  const removed = new Set<number>();
  let feedback: string | undefined;
  for (const change of batch) {
    if (change.kind === 'comment') comments.set(change.start, change.comment);
    else if (change.kind === 'delete') removed.add(change.start);
    else feedback = change.feedback;
  }
  return {
    ...(comments.size > 0 || removed.size > 0 ? { highlightedText: editHighlights(base.highlightedText, comments, removed) } : {}),
    ...(feedback !== undefined ? { feedback } : {}),
  };
}

/**
 * A feedback result: the student's text with the AI's highlighted passages beside the list of
 * feedback items, and the overall feedback. A teacher can edit a comment, delete a highlight or
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
  const onDelete = (start: number) => {
    autosave.discard(`comment ${start}`);
    autosave.change(`delete ${start}`, { kind: 'delete', start });
    autosave.flush();
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
          <HighlightedText highlightedText={current.highlightedText} highlighters={fn.highlights} label="Submission with highlights" />
        </Box>
        <Box component="section" aria-label="Feedback" sx={{ minWidth: 0 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mb: 1 }}>
            <Heading>{`Feedback (${parsed.items.length})`}</Heading>
            {!readOnly && <SaveStatus status={autosave.status} idle="Changes save as you go" onRetry={() => autosave.flush()} />}
          </Box>
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
      <OverallText label="Overall feedback" value={current.feedback} readOnly={readOnly} onDraft={onDraftOverall} onSaveNow={() => autosave.flush()} />
    </Stack>
  );
}
