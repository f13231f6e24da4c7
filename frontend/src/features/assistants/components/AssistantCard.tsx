import ContentCopyRounded from '@mui/icons-material/ContentCopyRounded';
import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import EditOutlined from '@mui/icons-material/EditOutlined';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import GroupAddOutlined from '@mui/icons-material/GroupAddOutlined';
import GroupRemoveOutlined from '@mui/icons-material/GroupRemoveOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import { Tooltip } from '../../../components/Tooltip';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import type { Assistant } from '../types';
import { AssistantAvatar } from './AssistantAvatar';

/** Props of {@link AssistantCard}. */
export interface AssistantCardProps {
  assistant: Assistant;
  /** The teacher may edit and delete it (its author or the team's owner). */
  canChange: boolean;
  /** A save, unsave or copy of this assistant is under way. */
  busy: boolean;
  onToggleSaved: () => void;
  onCopy: () => void;
  onDelete: () => void;
}

/**
 * One assistant in the list: picture, title, description (three lines at most), whether it is
 * saved for the team and whether it is the teacher's, and what the teacher may do with it.
 */
export function AssistantCard({ assistant, canChange, busy, onToggleSaved, onCopy, onDelete }: AssistantCardProps) {
  const titleId = useId();
  const { title } = assistant;
  return (
    <Card
      component="article"
      variant="outlined"
      aria-labelledby={titleId}
      sx={{ height: '100%', display: 'flex', flexDirection: 'column', borderRadius: '12px' }}
    >
      <CardContent sx={{ flex: 1, display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start', minWidth: 0 }}>
          <AssistantAvatar title={title} imageURL={assistant.imageURL} />
          <Box sx={{ minWidth: 0 }}>
            <Typography id={titleId} component="h2" variant="h6" sx={{ fontSize: '1.05rem', lineHeight: 1.3, overflowWrap: 'anywhere' }}>
              {title}
            </Typography>
            {(assistant.isSaved || assistant.isMine) && (
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75, mt: 0.75 }}>
                {assistant.isSaved && <Chip label="Saved for team" size="small" color="primary" variant="outlined" />}
                {assistant.isMine && <Chip label="Yours" size="small" />}
              </Box>
            )}
          </Box>
        </Box>
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{
            display: '-webkit-box',
            WebkitLineClamp: 3,
            WebkitBoxOrient: 'vertical',
            overflow: 'hidden',
            overflowWrap: 'anywhere',
          }}
        >
          {assistant.description}
        </Typography>
      </CardContent>
      <CardActions sx={{ flexWrap: 'wrap', gap: 0.5, px: 2, pb: 2, pt: 0, '& > :not(style) ~ :not(style)': { ml: 0 } }}>
        <Button
          component={RouterLink}
          to={`/assistants/${assistant._id}/chat`}
          variant="contained"
          size="small"
          startIcon={<ForumOutlined />}
          aria-label={`Chat with ${title}`}
        >
          Chat
        </Button>
        <Button
          size="small"
          onClick={onToggleSaved}
          disabled={busy}
          startIcon={assistant.isSaved ? <GroupRemoveOutlined /> : <GroupAddOutlined />}
          aria-label={assistant.isSaved ? `Unsave ${title} for the team` : `Save ${title} for the team`}
        >
          {assistant.isSaved ? 'Unsave' : 'Save for team'}
        </Button>
        <Box sx={{ flex: 1 }} />
        {!assistant.isMine && (
          <Tooltip title="Make a copy">
            <span>
              <IconButton size="small" onClick={onCopy} disabled={busy} aria-label={`Make a copy of ${title}`}>
                <ContentCopyRounded fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
        )}
        {canChange && (
          <Tooltip title="Edit">
            <IconButton size="small" component={RouterLink} to={`/assistants/${assistant._id}/edit`} aria-label={`Edit ${title}`}>
              <EditOutlined fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
        {canChange && (
          <Tooltip title="Delete">
            <IconButton size="small" onClick={onDelete} aria-label={`Delete ${title}`} sx={{ '&:hover': { color: 'error.main' } }}>
              <DeleteOutlineRounded fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
      </CardActions>
    </Card>
  );
}
