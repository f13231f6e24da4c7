import AutoAwesomeOutlined from '@mui/icons-material/AutoAwesomeOutlined';
import ExpandMoreRounded from '@mui/icons-material/ExpandMoreRounded';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { useToast } from '../../../../components/toast';
import { errorMessage } from '../../../../lib/api-client';
import { useSuggestQuestions, type SuggestedQuestion } from '../../api/suggest-questions';
import { isReadableTextFile, MAX_SHEET_BYTES, readTextFile } from '../../lib/read-text-file';

/** Toast when the AI could not produce questions. */
export const SUGGEST_QUESTIONS_FAILED = 'Failed to generate questions.';

/** Props for {@link SuggestQuestionsPanel}. */
export interface SuggestQuestionsPanelProps {
  /** Receives the questions the AI found (at least one). */
  onSuggested: (questions: SuggestedQuestion[]) => void;
}

/**
 * "Generate questions from assignment sheet": paste the sheet's text, or read a .txt/.md file in
 * the browser, and ask the AI for questions with criteria.
 */
export function SuggestQuestionsPanel({ onSuggested }: SuggestQuestionsPanelProps) {
  const { showToast } = useToast();
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const helpId = useId();
  const suggest = useSuggestQuestions();

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!isReadableTextFile(file)) {
      showToast({ type: 'warning', message: 'Only .txt and .md files can be read for now. Paste the text of other files instead.' });
      return;
    }
    if (file.size > MAX_SHEET_BYTES) {
      showToast({ type: 'warning', message: 'That file is larger than 1 MB. Paste the questions instead.' });
      return;
    }
    try {
      setText(await readTextFile(file));
      setFileName(file.name);
    } catch {
      showToast({ type: 'error', message: `Couldn't read ${file.name}.` });
    }
  }

  async function generate() {
    try {
      const questions = await suggest.mutateAsync({ assignmentText: text.trim() });
      if (questions.length === 0) {
        showToast({ type: 'warning', message: 'No questions were found in that text.' });
        return;
      }
      onSuggested(questions);
    } catch (error) {
      showToast({ type: 'error', message: errorMessage(error, SUGGEST_QUESTIONS_FAILED) });
    }
  }

  return (
    <Accordion
      disableGutters
      variant="outlined"
      sx={{ borderRadius: '10px', '&::before': { display: 'none' }, bgcolor: 'rgba(23, 97, 107, 0.03)' }}
    >
      <AccordionSummary expandIcon={<ExpandMoreRounded />} sx={{ px: { xs: 2, sm: 2.5 } }}>
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}>
          <AutoAwesomeOutlined color="primary" aria-hidden="true" sx={{ mt: '2px' }} />
          <Box>
            <Typography sx={{ fontWeight: 600 }}>Generate questions from assignment sheet</Typography>
            <Typography variant="body2" color="text.secondary">
              The AI reads your sheet and drafts questions with criteria.
            </Typography>
          </Box>
        </Box>
      </AccordionSummary>
      <AccordionDetails sx={{ px: { xs: 2, sm: 2.5 }, pb: 2.5 }}>
        <TextField
          label="Assignment text"
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setFileName(null);
          }}
          multiline
          minRows={5}
          maxRows={14}
          placeholder={'1. Explain the causes of the First World War.\n2. Which cause mattered most? Why?'}
          slotProps={{ htmlInput: { 'aria-describedby': helpId } }}
        />
        <Typography id={helpId} variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          Paste the assignment text, or choose a .txt or .md file. Reading PDF and Word files arrives in a later
          release.
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, mt: 2 }}>
          <Button variant="outlined" startIcon={<UploadFileOutlined />} onClick={() => fileInput.current?.click()}>
            Choose file
          </Button>
          <input
            ref={fileInput}
            type="file"
            accept=".txt,.md,.markdown,text/plain,text/markdown"
            hidden
            data-testid="assignment-sheet-input"
            aria-label="Assignment sheet file"
            onChange={(event) => void onFile(event)}
          />
          {fileName && (
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
              Read {fileName}
            </Typography>
          )}
          <Box sx={{ flex: 1 }} />
          <Button
            variant="contained"
            startIcon={<AutoAwesomeOutlined />}
            disabled={text.trim() === ''}
            loading={suggest.isPending}
            loadingPosition="start"
            onClick={() => void generate()}
          >
            Generate questions
          </Button>
        </Box>
      </AccordionDetails>
    </Accordion>
  );
}
