import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import type { AnswerBox } from '../api/types';
import { toPercent } from '../lib/geometry';
import { pathKey, type BoxQuestion } from '../lib/questions';

/** Props for {@link QuestionBoxList}. */
export interface QuestionBoxListProps {
  questions: BoxQuestion[];
  boxOf: (path: number[]) => AnswerBox | undefined;
  selectedPath: number[] | null;
  onSelect: (question: BoxQuestion) => void;
  onClear: (question: BoxQuestion) => void;
}

function describe(box: AnswerBox | undefined): string {
  if (!box) return 'No box yet';
  return `Page ${box.page + 1} · ${toPercent(box.width)}% × ${toPercent(box.height)}%`;
}

/** The questions, each with where its box is (or "No box yet") and a Clear button. */
export function QuestionBoxList({ questions, boxOf, selectedPath, onSelect, onClear }: QuestionBoxListProps) {
  const selectedKey = selectedPath ? pathKey(selectedPath) : null;
  return (
    <List dense disablePadding aria-label="Questions" sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
      {questions.map((question) => {
        const key = pathKey(question.path);
        const box = boxOf(question.path);
        const selected = key === selectedKey;
        const depth = question.path.length - 1;
        return (
          <ListItem
            key={key}
            disablePadding
            divider
            secondaryAction={
              box ? (
                <Button size="small" onClick={() => onClear(question)} aria-label={`Clear the box of question ${question.label}`}>
                  Clear
                </Button>
              ) : undefined
            }
            sx={{ '&:last-of-type': { borderBottom: 0 } }}
          >
            <ListItemButton
              selected={selected}
              aria-pressed={selected}
              onClick={() => onSelect(question)}
              sx={{ pl: 2 + depth * 2, pr: box ? 10 : 2 }}
            >
              <ListItemText
                primary={question.text ? `${question.label}. ${question.text}` : `Question ${question.label}`}
                secondary={describe(box)}
                slotProps={{ primary: { noWrap: true, sx: { fontWeight: selected ? 600 : 500 } } }}
              />
            </ListItemButton>
          </ListItem>
        );
      })}
    </List>
  );
}
