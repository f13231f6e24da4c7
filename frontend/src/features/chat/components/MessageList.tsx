import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import ErrorOutlineRounded from '@mui/icons-material/ErrorOutlineRounded';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { systemMessageLabel } from '../lib/files-read';
import type { DisplayMessage, FailedAnswer, LiveAnswer } from '../lib/session';
import { Markdown } from './Markdown';

/** Props of {@link MessageList}. */
export interface MessageListProps {
  messages: DisplayMessage[];
  /** Indexes of answers that wrote a version of the document. */
  documentIndexes: Set<number>;
  live: LiveAnswer | null;
  error: FailedAnswer | null;
  omittedTurns: number;
  onRetry: () => void;
  /** Given, the last message (a stopped answer) offers Retry, which asks its question again. */
  onRetryStopped?: () => void;
}

/** What an answer stopped before any text says in place of it. */
export const STOPPED_BEFORE_ANSWERING = 'Stopped before answering.';

/** The sentence for messages the server left out of the model's context. */
export function omittedTurnsNotice(n: number): string {
  return n === 1
    ? "1 earlier message was left out to fit the model's context"
    : `${n} earlier messages were left out to fit the model's context`;
}

function Bubble({ mine, label, children }: { mine: boolean; label: string; children: ReactNode }) {
  return (
    <Box
      component="li"
      aria-label={label}
      sx={{ display: 'flex', justifyContent: mine ? 'flex-end' : 'flex-start', minWidth: 0 }}
    >
      <Box
        sx={{
          maxWidth: { xs: '92%', sm: '80%' },
          minWidth: 0,
          px: 2,
          py: 1.25,
          borderRadius: mine ? '16px 16px 4px 16px' : '16px 16px 16px 4px',
          bgcolor: mine ? 'primary.main' : 'background.paper',
          color: mine ? 'primary.contrastText' : 'text.primary',
          border: mine ? 0 : 1,
          borderColor: 'divider',
          '& a': mine ? { color: 'inherit', textDecoration: 'underline' } : undefined,
        }}
      >
        {children}
      </Box>
    </Box>
  );
}

function FileReadChip({ content }: { content: string }) {
  const [open, setOpen] = useState(false);
  const label = systemMessageLabel(content);
  return (
    <Box component="li" sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', minWidth: 0 }}>
      <Chip
        size="small"
        variant="outlined"
        icon={<InsertDriveFileOutlined />}
        label={label}
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        sx={{ maxWidth: '100%' }}
      />
      <Collapse in={open} sx={{ width: '100%' }}>
        <Box
          sx={{
            mt: 1,
            p: 1.5,
            maxHeight: 240,
            overflow: 'auto',
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            fontSize: '0.8125rem',
            color: 'text.secondary',
            bgcolor: 'rgba(0,0,0,0.03)',
            borderRadius: 1,
          }}
        >
          {content}
        </Box>
      </Collapse>
    </Box>
  );
}

function AnswerBody({ message, wroteDocument, onRetry }: { message: DisplayMessage; wroteDocument: boolean; onRetry?: () => void }) {
  const hasText = message.content.trim() !== '';
  return (
    <>
      {hasText ? (
        <Markdown>{message.content}</Markdown>
      ) : (
        <Typography variant="body2" sx={{ fontStyle: 'italic' }}>
          {wroteDocument ? 'Wrote the document.' : message.stopped ? STOPPED_BEFORE_ANSWERING : 'No answer text.'}
        </Typography>
      )}
      {wroteDocument && hasText && (
        <Typography variant="caption" color="text.secondary" sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mt: 0.5 }}>
          <DescriptionOutlined fontSize="inherit" /> Updated the document
        </Typography>
      )}
      {message.stopped && (hasText || onRetry) && (
        <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, mt: 0.5 }}>
          {hasText && (
            <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 600 }}>
              Stopped
            </Typography>
          )}
          {onRetry && (
            <Button size="small" variant="outlined" onClick={onRetry} sx={{ py: 0 }}>
              Retry
            </Button>
          )}
        </Box>
      )}
    </>
  );
}

/**
 * The conversation: the teacher's messages on the right, the model's on the left, the text of
 * files read as a small chip, the answer streaming now (announced politely), and a failed answer
 * with "Retry". A stopped answer is marked "Stopped" under what had arrived, or says "Stopped before
 * answering." when nothing had; the last one offers "Retry".
 */
export function MessageList({ messages, documentIndexes, live, error, omittedTurns, onRetry, onRetryStopped }: MessageListProps) {
  const end = useRef<HTMLDivElement>(null);
  const liveLength = live?.text.length ?? -1;
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [messages.length, liveLength, error]);

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, minWidth: 0 }}>
      <Box
        component="ol"
        aria-label="Messages"
        sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 1.5, minWidth: 0 }}
      >
        {messages.map((message, index) => {
          if (message.role === 'system') return <FileReadChip key={index} content={message.content} />;
          const mine = message.role === 'user';
          return (
            <Bubble key={index} mine={mine} label={mine ? 'You' : 'Assistant'}>
              {mine ? (
                <>
                  <Markdown>{message.content}</Markdown>
                  {documentIndexes.has(index) && (
                    // The teacher's hand edit was kept as a version when this message asked for a change.
                    <Typography variant="caption" sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mt: 0.5, opacity: 0.9 }}>
                      <DescriptionOutlined fontSize="inherit" /> Your edit kept as a version
                    </Typography>
                  )}
                </>
              ) : (
                <AnswerBody
                  message={message}
                  wroteDocument={documentIndexes.has(index)}
                  onRetry={index === messages.length - 1 ? onRetryStopped : undefined}
                />
              )}
            </Bubble>
          );
        })}
      </Box>
      {omittedTurns > 0 && (
        <Typography variant="caption" color="text.secondary" role="note" sx={{ textAlign: 'center' }}>
          {omittedTurnsNotice(omittedTurns)}
        </Typography>
      )}
      <Box role="region" aria-live="polite" aria-label="Answer in progress" sx={{ minWidth: 0 }}>
        {live && (
          <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
            <Bubble mine={false} label="Assistant (writing)">
              {live.text === '' ? (
                <Typography variant="body2" color="text.secondary">
                  Thinking…
                </Typography>
              ) : (
                <Markdown>{live.text}</Markdown>
              )}
            </Bubble>
          </Box>
        )}
      </Box>
      {error && (
        <Box
          role="alert"
          sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, color: 'error.main', minWidth: 0 }}
        >
          <ErrorOutlineRounded fontSize="small" aria-hidden="true" />
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere', minWidth: 0, flex: '1 1 200px' }}>
            {error.message}
          </Typography>
          <Button size="small" variant="outlined" color="error" onClick={onRetry}>
            Retry
          </Button>
        </Box>
      )}
      <div ref={end} />
    </Box>
  );
}
