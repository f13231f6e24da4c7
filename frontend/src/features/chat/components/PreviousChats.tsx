import CloseRounded from '@mui/icons-material/CloseRounded';
import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { LoadError } from '../../../components/LoadError';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format-date';
import { useChatList, useDeleteChat } from '../api/chats';
import type { ChatDoc } from '../types';

/** Props of {@link PreviousChats}. */
export interface PreviousChatsProps {
  open: boolean;
  onClose: () => void;
  /** The chat open on the page, marked in the list. */
  currentChatId?: string;
  onOpen: (chatId: string) => void;
  /** Called after a chat was deleted. */
  onDeleted: (chatId: string) => void;
}

/** The teacher's saved chats, newest first, in a side panel: open one, or delete it (after a confirm). */
export function PreviousChats({ open, onClose, currentChatId, onOpen, onDeleted }: PreviousChatsProps) {
  const chats = useChatList(open);
  const remove = useDeleteChat();
  const { showToast } = useToast();
  const [toDelete, setToDelete] = useState<ChatDoc | null>(null);

  const confirmDelete = () => {
    if (!toDelete) return;
    const id = toDelete._id;
    remove.mutate(id, {
      onSuccess: () => {
        setToDelete(null);
        showToast({ type: 'success', message: 'Chat deleted' });
        onDeleted(id);
      },
      onError: (err) => showToast({ type: 'error', message: errorMessage(err, 'The chat could not be deleted.') }),
    });
  };

  return (
    <Drawer anchor="right" open={open} onClose={onClose} slotProps={{ paper: { sx: { width: { xs: '100%', sm: 380 } } } }}>
      <Box
        component="nav"
        aria-label="Previous chats"
        sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1, minWidth: 0 }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography variant="h2" sx={{ fontSize: '1.25rem' }}>
            Previous chats
          </Typography>
          <IconButton aria-label="Close previous chats" onClick={onClose}>
            <CloseRounded />
          </IconButton>
        </Box>
        {chats.isPending && (
          <Box aria-label="Loading chats">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height={56} />
            ))}
          </Box>
        )}
        {chats.isError && (
          <LoadError
            message="We couldn't load your chats."
            onRetry={() => void chats.refetch()}
            retrying={chats.isFetching}
          />
        )}
        {chats.data && chats.data.length === 0 && (
          <Typography color="text.secondary">No saved chats yet. Save a chat to find it here.</Typography>
        )}
        {chats.data && chats.data.length > 0 && (
          <List aria-label="Saved chats" disablePadding>
            {chats.data.map((chat) => (
              <ListItem
                key={chat._id}
                disablePadding
                secondaryAction={
                  <IconButton edge="end" aria-label={`Delete chat ${chat.title}`} onClick={() => setToDelete(chat)}>
                    <DeleteOutlineRounded />
                  </IconButton>
                }
              >
                <ListItemButton
                  selected={chat._id === currentChatId}
                  aria-current={chat._id === currentChatId ? 'page' : undefined}
                  onClick={() => onOpen(chat._id)}
                  sx={{ borderRadius: 1, pr: 6 }}
                >
                  <ListItemText
                    primary={chat.title}
                    secondary={formatDate(chat.updatedAt)}
                    slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        )}
      </Box>
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete this chat?"
        description={`"${toDelete?.title ?? ''}" and its document will be deleted for good.`}
        confirmLabel="Delete"
        onConfirm={confirmDelete}
        onClose={() => setToDelete(null)}
        pending={remove.isPending}
      />
    </Drawer>
  );
}
